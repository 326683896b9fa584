// switchyard_dump_schemas FILE: writes the schema of every operator libswitchyard defines, one
// `- func: <schema>` entry each (kernel YAML's format), for switchyard_codegen's `op:` entries.
#include <fstream>
#include <iostream>

#include "switchyard/dispatcher/dispatcher.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: switchyard_dump_schemas OUTPUT.yaml\n";
    return 2;
  }
  std::ofstream out(argv[1]);
  out << "# The operators libswitchyard defines; written by switchyard_dump_schemas.\n";
  sy::Dispatcher& dispatcher = sy::Dispatcher::singleton();
  for (const sy::OperatorName& name : dispatcher.getAllOpNames()) {
    std::optional<sy::OperatorHandle> op = dispatcher.findSchema(name);
    if (!op) continue;
    std::string schema = op->schema().toString();
    std::string quoted = "'";
    for (char c : schema) quoted += (c == '\'') ? std::string("''") : std::string(1, c);
    out << "- func: " << quoted << "'\n";
  }
  if (!out) {
    std::cerr << "switchyard_dump_schemas: cannot write " << argv[1] << "\n";
    return 1;
  }
  return 0;
}
