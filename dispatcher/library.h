// Library and the registration macros: how operators, kernels and fallbacks get registered.
//
//   SY_LIBRARY(myops, m) { m.def("scale(Tensor self, float s) -> Tensor"); }
//   SY_LIBRARY_IMPL(myops, CPU, m) { m.impl("scale", &scale_cpu); }
//   SY_LIBRARY_IMPL(_, Accel, m) { m.fallback(sy::CppFunction::makeFromBoxedFunction<&accel_fallback>()); }
//   SY_LIBRARY_IMPL(_, Tracer, m) { m.fallback(sy::CppFunction::makeFallthrough()); }
//
// Blocks run at static initialisation. A Library can also be made at run time; destroying it
// deregisters everything it registered, restoring whatever was there before:
//
//   {
//     sy::Library lib(sy::Library::Impl, "myops", sy::DispatchKey::CPU);
//     lib.impl("scale", &scale_cpu_v2);   // overrides the previous CPU kernel...
//   }                                     // ...until here
//
// Every registration records the file:line of its call, shown in errors and table dumps.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "switchyard/dispatcher/cpp_function.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/source_location.h"

namespace sy {

class Library {
 public:
  enum Kind {
    Def,       // SY_LIBRARY: defines operators; one per namespace
    Fragment,  // SY_LIBRARY_FRAGMENT: more definitions for a namespace
    Impl,      // SY_LIBRARY_IMPL: kernels for one dispatch key (or fallbacks, in namespace _)
    // torch::Library's spellings, so code written against it compiles unchanged.
    DEF = Def,
    FRAGMENT = Fragment,
    IMPL = Impl,
  };

  Library(Kind kind, std::string ns, std::optional<DispatchKey> key = std::nullopt,
          SourceLocation site = SourceLocation::current());
  Library(Kind kind, std::string ns, std::optional<DispatchKey> key, const char* file, uint32_t line)
      : Library(kind, std::move(ns), key, SourceLocation{file, line}) {}
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  Library(Library&&) = default;
  Library& operator=(Library&&) = default;
  ~Library();

  // Defines an operator from its schema; the namespace may be omitted ("scale(Tensor self) -> Tensor").
  Library& def(std::string_view schema, SourceLocation site = SourceLocation::current());
  // Defines an operator and registers `func` as its CompositeImplicit kernel. Given a name alone
  // ("scale" rather than "scale(Tensor self, float s) -> Tensor"), the schema is inferred from
  // `func`'s C++ signature, with arguments named _0, _1, ... (schemaFromSignature).
  template <class Func>
  Library& def(std::string_view name_or_schema, Func&& func, SourceLocation site = SourceLocation::current()) {
    CppFunction f = toCppFunction(std::forward<Func>(func));
    if (name_or_schema.find('(') == std::string_view::npos) {
      defInferred(name_or_schema, f, site);
    } else {
      def(name_or_schema, site);
    }
    return registerImpl(schemaName(name_or_schema), std::move(f), site);
  }

  // Registers a kernel for the operator `name` ("acos.out" or "aten::acos.out") on this library's
  // key (CompositeImplicit in a SY_LIBRARY block), or on the key given with sy::dispatch.
  template <class Func>
  Library& impl(std::string_view name, Func&& func, SourceLocation site = SourceLocation::current()) {
    return registerImpl(name, toCppFunction(std::forward<Func>(func)), site);
  }

  // PyTorch's `m.impl(name, key, fn)`: the same as `impl(name, dispatch(key, fn))`, for a
  // DispatchKey or a DeviceType.
  template <class Key, class Func,
            std::enable_if_t<std::is_same_v<std::decay_t<Key>, DispatchKey> || std::is_same_v<std::decay_t<Key>, DeviceType>,
                             int> = 0>
  Library& impl(std::string_view name, Key key, Func&& func, SourceLocation site = SourceLocation::current()) {
    return registerImpl(name, dispatch(key, std::forward<Func>(func)), site);
  }

  // Registers a boxed fallback for every operator on this library's key. Only in
  // SY_LIBRARY_IMPL(_, Key, m) blocks.
  Library& fallback(CppFunction func, SourceLocation site = SourceLocation::current());
  // Registers `func` as the key's default fallback: a fallback registered on the key with
  // fallback() replaces it while that registration lives (see Note [A backend's own fallback
  // replaces the library's default], dispatcher.h). The library's own, for keys a backend owns.
  Library& defaultFallback(CppFunction func, SourceLocation site = SourceLocation::current());

  const std::string& ns() const { return ns_; }
  std::optional<DispatchKey> key() const { return key_; }

 private:
  template <class Func>
  static CppFunction toCppFunction(Func&& func) {
    if constexpr (std::is_same_v<std::decay_t<Func>, CppFunction>) {
      return std::move(func);
    } else {
      return CppFunction(std::forward<Func>(func));
    }
  }
  static std::string_view schemaName(std::string_view schema);
  void defInferred(std::string_view name, CppFunction& func, SourceLocation site);
  Library& registerImpl(std::string_view name, CppFunction func, SourceLocation site);
  Library& addFallback(std::string_view method, CppFunction func, SourceLocation site, bool is_default);
  OperatorName qualify(std::string_view name, SourceLocation site) const;
  // "SY_LIBRARY_IMPL(aten, CPU) at file:line"
  std::string describe() const;

  Kind kind_;
  std::string ns_;
  std::optional<DispatchKey> key_;
  SourceLocation site_;
  std::vector<RegistrationHandle> registrations_;
};

namespace detail {
// Runs a registration block at static initialisation and keeps its Library alive.
class LibraryInitializer {
 public:
  LibraryInitializer(Library::Kind kind, void (*init)(Library&), const char* ns, std::optional<DispatchKey> key,
                     const char* file, uint32_t line)
      : library_(kind, ns, key, file, line) {
    init(library_);
  }

 private:
  Library library_;
};
}  // namespace detail

}  // namespace sy

#define SY_CONCAT_IMPL(a, b) a##b
#define SY_CONCAT(a, b) SY_CONCAT_IMPL(a, b)
#define SY_UID __COUNTER__

#define SY_LIBRARY(ns, m)                                                                              \
  static void SY_LIBRARY_init_##ns(::sy::Library&);                                                    \
  static const ::sy::detail::LibraryInitializer SY_LIBRARY_static_init_##ns(                           \
      ::sy::Library::Def, &SY_LIBRARY_init_##ns, #ns, std::nullopt, __FILE__, __LINE__);               \
  void SY_LIBRARY_init_##ns(::sy::Library& m)

#define SY_LIBRARY_FRAGMENT(ns, m) SY_LIBRARY_FRAGMENT_WITH_UID(ns, m, SY_UID)
#define SY_LIBRARY_FRAGMENT_WITH_UID(ns, m, uid)                                                           \
  static void SY_CONCAT(SY_LIBRARY_FRAGMENT_init_##ns##_, uid)(::sy::Library&);                           \
  static const ::sy::detail::LibraryInitializer SY_CONCAT(SY_LIBRARY_FRAGMENT_static_init_##ns##_, uid)(  \
      ::sy::Library::Fragment, &SY_CONCAT(SY_LIBRARY_FRAGMENT_init_##ns##_, uid), #ns, std::nullopt,      \
      __FILE__, __LINE__);                                                                                \
  void SY_CONCAT(SY_LIBRARY_FRAGMENT_init_##ns##_, uid)(::sy::Library& m)

#define SY_LIBRARY_IMPL(ns, k, m) SY_LIBRARY_IMPL_WITH_UID(ns, k, m, SY_UID)
#define SY_LIBRARY_IMPL_WITH_UID(ns, k, m, uid)                                                            \
  static void SY_CONCAT(SY_LIBRARY_IMPL_init_##ns##_##k##_, uid)(::sy::Library&);                         \
  static const ::sy::detail::LibraryInitializer SY_CONCAT(SY_LIBRARY_IMPL_static_init_##ns##_##k##_, uid)( \
      ::sy::Library::Impl, &SY_CONCAT(SY_LIBRARY_IMPL_init_##ns##_##k##_, uid), #ns, ::sy::DispatchKey::k, \
      __FILE__, __LINE__);                                                                                \
  void SY_CONCAT(SY_LIBRARY_IMPL_init_##ns##_##k##_, uid)(::sy::Library& m)
