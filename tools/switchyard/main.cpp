// `switchyard`: run and inspect ExecuTorch programs on Switchyard's dispatcher, list its operators,
// measure it, and demonstrate it. See command.h.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_join.h"
#include "absl/status/status.h"
#include "switchyard/core/error.h"
#include "switchyard/core/error_status.h"
#include "switchyard/tools/switchyard/command.h"

namespace {

using sy::cli::Command;

const std::vector<const Command*>& commands() {
  static const std::vector<const Command*> all = {&sy::cli::demoCommand(), &sy::cli::runCommand(), &sy::cli::inspectCommand(),
                                                     &sy::cli::opsCommand(), &sy::cli::benchCommand()};
  return all;
}

void printOverview(std::ostream& os) {
  os << "switchyard: run and inspect ExecuTorch programs on Switchyard's dispatcher.\n\n"
        "usage: switchyard <command> [arguments] [flags]\n\ncommands:\n";
  for (const Command* c : commands()) os << "  " << c->name << std::string(10 - std::string(c->name).size(), ' ') << c->summary << "\n";
  os << "\n`switchyard <command> --help` describes a command and its flags.\n";
}

void printHelp(const Command& c) {
  std::cout << c.usage << "\n";
  if (c.flags.empty()) return;
  std::cout << "\nflags:\n";
  for (const std::string& name : c.flags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    std::string spelled = name;  // See Note [Flags are spelled with dashes]
    std::replace(spelled.begin(), spelled.end(), '_', '-');
    std::cout << "  --" << spelled << " (default: " << (flag->DefaultValue().empty() ? "\"\"" : flag->DefaultValue())
              << ")\n      " << flag->Help() << "\n";
  }
}

// Every error is one line on stderr (a message with line breaks is joined) and an exit status
// that says whose the fault is: 1 the input's (the command line, a file, a program, its inputs),
// 3 Switchyard lacks what the program needs (an operator, a backend, a dtype), 4 a bug, following
// one table (See Note [An error keeps its kind across every boundary] in core/error_status.h).
int exitStatusOf(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kUnimplemented: return 3;
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnknown: return 4;
    default: return 1;
  }
}

int fail(const absl::Status& status) {
  std::string message(status.message());
  while (!message.empty() && message.back() == '\n') message.pop_back();
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::cerr << "switchyard: " << message << "\n";
  return exitStatusOf(status);
}
int fail(std::string message) { return fail(absl::InvalidArgumentError(message)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    printOverview(std::cerr);
    return 1;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printOverview(std::cout);
    return 0;
  }
  const Command* command = nullptr;
  for (const Command* c : commands()) {
    if (name == c->name) command = c;
  }
  if (command == nullptr) {
    std::vector<std::string> names;
    for (const Command* c : commands()) names.push_back(c->name);
    return fail("unknown command '" + name + "'; commands: " + absl::StrJoin(names, ", ") + " (see switchyard --help)");
  }
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h" || arg == "--helpfull") {
      printHelp(*command);
      return 0;
    }
  }

  // Refuse a flag this subcommand does not take (abseil's flags are global to the program), then
  // parse. argv[1] (the command name) is dropped so abseil sees `switchyard [arguments] [flags]`.
  //
  // Note [Flags are spelled with dashes]
  // abseil names flags with underscores (method_meta); the command line spells them with dashes
  // (--method-meta), as its help prints them. A flag's name is rewritten with underscores before
  // abseil parses it (its value, after '=', is left alone), so both spellings work.
  std::vector<std::string> args_with_abseil_names(argv + 2, argv + argc);
  std::vector<char*> rest = {argv[0]};
  for (std::string& arg : args_with_abseil_names) {
    const std::string given = arg;
    if (arg == "--") {
      rest.push_back(arg.data());
      break;
    }
    // Not a flag: a positional argument, or a negative number given as a flag's value (--random -2).
    if (arg.size() < 2 || arg[0] != '-' || std::isdigit(static_cast<unsigned char>(arg[1]))) {
      rest.push_back(arg.data());
      continue;
    }
    const size_t name_begin = std::min(arg.find_first_not_of('-'), arg.size());
    const size_t name_end = std::max(std::min(arg.find('='), arg.size()), name_begin);
    std::replace(arg.begin() + static_cast<std::ptrdiff_t>(name_begin), arg.begin() + static_cast<std::ptrdiff_t>(name_end), '-', '_');
    rest.push_back(arg.data());
    const std::string flag = arg.substr(name_begin, name_end - name_begin);
    bool allowed = false;
    for (const std::string& f : command->flags) allowed |= (f == flag || "no" + f == flag);
    if (!allowed) {
      return fail(std::string(command->name) + " does not take " + given.substr(0, given.find('=')) +
                  " (see switchyard " + command->name + " --help)");
    }
  }
  absl::SetProgramUsageMessage(command->usage);
  std::vector<char*> positional_args = absl::ParseCommandLine(static_cast<int>(rest.size()), rest.data());
  std::vector<std::string> args(positional_args.begin() + 1, positional_args.end());
  // Commands return their errors; an exception escaping one (a library check failing) is still one
  // line and the exit status of its kind, never an abort.
  absl::Status status;
  try {
    status = command->run(args);
  } catch (const std::exception& e) {
    status = sy::statusOf(e, sy::str(command->name, ": "));
  }
  if (!status.ok()) return fail(status);
  return 0;
}
