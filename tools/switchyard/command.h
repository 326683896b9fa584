// The `switchyard` command line: one Command per subcommand.
//
//   switchyard run model.pte --inputs inputs.json --format json
//   switchyard inspect model.pte
//   switchyard ops aten::add
//   switchyard bench
//   switchyard demo
//
// Each subcommand names the flags it takes (flags are abseil flags, defined in the command's own
// file); main() refuses a flag given to a subcommand that does not take it, prints the
// subcommand's help for --help, and turns a returned error into one line on stderr and exit
// status 1.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace sy::cli {

struct Command {
  const char* name;
  const char* summary;                // one line, for `switchyard --help`
  const char* usage;                  // the synopsis and a paragraph, for `switchyard NAME --help`
  std::vector<std::string> flags;     // the flags it takes, without "--"
  // Runs with the positional arguments that follow the subcommand's name. Output goes to stdout;
  // an error is returned, not printed.
  absl::Status (*run)(const std::vector<std::string>& args);
};

const Command& runCommand();
const Command& inspectCommand();
const Command& opsCommand();
const Command& benchCommand();
const Command& demoCommand();

}  // namespace sy::cli
