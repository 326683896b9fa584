#include "switchyard/dispatcher/library.h"

#include <algorithm>

namespace sy {
namespace {

// Our macro and PyTorch's, so that an error names the one its reader wrote.
std::string_view kindName(Library::Kind kind) {
  switch (kind) {
    case Library::Def: return "SY_LIBRARY/TORCH_LIBRARY";
    case Library::Fragment: return "SY_LIBRARY_FRAGMENT/TORCH_LIBRARY_FRAGMENT";
    case Library::Impl: return "SY_LIBRARY_IMPL/TORCH_LIBRARY_IMPL";
  }
  return "SY_LIBRARY/TORCH_LIBRARY";
}

}  // namespace

Library::Library(Kind kind, std::string ns, std::optional<DispatchKey> key, SourceLocation site)
    : kind_(kind), ns_(std::move(ns)), key_(key), site_(site) {
  SY_CHECK(ns_ != "_" || kind_ == Impl, kindName(kind_), "(_) at ", site_.str(),
           ": the namespace _ is only for SY_LIBRARY_IMPL/TORCH_LIBRARY_IMPL(_, Key, m) blocks that register fallbacks");
  SY_CHECK(kind_ != Impl || key_.has_value(), kindName(kind_), "(", ns_, ") at ", site_.str(), " needs a dispatch key");
  if (kind_ == Def) registrations_.push_back(Dispatcher::singleton().registerLibrary(ns_, site_));
}

Library::~Library() {
  // Undo in reverse order, so kernels go before the schema they were checked against.
  while (!registrations_.empty()) registrations_.pop_back();
}

std::string Library::describe() const {
  std::string args = ns_;
  if (kind_ == Impl && key_) args += str(", ", *key_);
  return str(kindName(kind_), "(", args, ") at ", site_.str());
}

std::string_view Library::schemaName(std::string_view schema) {
  size_t paren = schema.find('(');
  std::string_view name = schema.substr(0, paren);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
  return name;
}

OperatorName Library::qualify(std::string_view name, SourceLocation site) const {
  std::string full(name);
  size_t colons = full.find("::");
  if (colons == std::string::npos) {
    full = ns_ + "::" + full;
  } else {
    SY_CHECK(full.substr(0, colons) == ns_, "cannot register ", full, " at ", site.str(), " in ", describe(),
             ": the operator's namespace must be '", ns_, "'");
  }
  return parseOperatorName(full);
}

Library& Library::def(std::string_view schema, SourceLocation site) {
  SY_CHECK(kind_ != Impl, "def() at ", site.str(), " is not allowed in ", describe(),
           "; define operators in a SY_LIBRARY/TORCH_LIBRARY or SY_LIBRARY_FRAGMENT/TORCH_LIBRARY_FRAGMENT block");
  std::string text(schema);
  std::string_view name = schemaName(schema);
  if (name.find("::") == std::string_view::npos) {
    text = ns_ + "::" + text.substr(text.find_first_not_of(' '));
  } else {
    qualify(name, site);  // checks the namespace
  }
  FunctionSchema parsed = [&] {
    try {
      return parseSchema(text);
    } catch (const Error& e) {
      detail::throwError(e.kind(), str(e.what(), "\n  (in def() at ", site.str(), ")"));
    }
  }();
  registrations_.push_back(Dispatcher::singleton().registerDef(std::move(parsed), site));
  return *this;
}

void Library::defInferred(std::string_view name, CppFunction& func, SourceLocation site) {
  SY_CHECK(kind_ != Impl, "def() at ", site.str(), " is not allowed in ", describe(),
           "; define operators in a SY_LIBRARY/TORCH_LIBRARY or SY_LIBRARY_FRAGMENT/TORCH_LIBRARY_FRAGMENT block");
  SY_CHECK(func.signature().has_value(), "def(\"", name, "\", ...) at ", site.str(),
           ": a schema can only be inferred from an unboxed kernel (a function, SY_FN/TORCH_FN or a lambda); give "
           "a boxed kernel its schema, def(\"", name, "(...) -> ...\", ...)");
  registrations_.push_back(
      Dispatcher::singleton().registerDef(schemaFromSignature(qualify(name, site), *func.signature()), site));
}

Library& Library::registerImpl(std::string_view name, CppFunction func, SourceLocation site) {
  SY_CHECK(ns_ != "_", "impl() at ", site.str(), " is not allowed in ", describe(),
           ": the _ namespace only takes fallback(); register per-operator kernels in SY_LIBRARY_IMPL/TORCH_LIBRARY_IMPL(<namespace>, ",
           key_ ? std::string(toString(*key_)) : std::string("<key>"), ", m)");
  DispatchKey key = DispatchKey::CompositeImplicit;
  if (kind_ == Impl) key = *key_;
  if (func.dispatchKey()) {
    SY_CHECK(kind_ != Impl || *func.dispatchKey() == *key_, "impl() at ", site.str(), " asks for dispatch key ",
             *func.dispatchKey(), ", which conflicts with the key of ", describe());
    key = *func.dispatchKey();
  }
  OperatorName op = qualify(name, site);
  registrations_.push_back(Dispatcher::singleton().registerImpl(op, key, std::move(func.kernel()),
                                                                std::move(func.signature()), site));
  return *this;
}

Library& Library::fallback(CppFunction func, SourceLocation site) {
  return addFallback("fallback", std::move(func), site, /*is_default=*/false);
}

Library& Library::defaultFallback(CppFunction func, SourceLocation site) {
  return addFallback("defaultFallback", std::move(func), site, /*is_default=*/true);
}

Library& Library::addFallback(std::string_view method, CppFunction func, SourceLocation site, bool is_default) {
  SY_CHECK(kind_ == Impl && ns_ == "_", method, "() at ", site.str(), " is not allowed in ", describe(),
           ": backend fallbacks apply to every operator, so they are registered in SY_LIBRARY_IMPL/TORCH_LIBRARY_IMPL(_, Key, m) blocks");
  DispatchKey key = func.dispatchKey().value_or(*key_);
  Dispatcher& dispatcher = Dispatcher::singleton();
  registrations_.push_back(is_default ? dispatcher.registerDefaultFallback(key, std::move(func.kernel()), site)
                                      : dispatcher.registerFallback(key, std::move(func.kernel()), site));
  return *this;
}

}  // namespace sy
