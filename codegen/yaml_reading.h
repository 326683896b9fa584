// Reading kernel YAML: the file's text (regular files only), the document checked as written (what
// yaml-cpp's node API accepts silently: a key given twice in a map, a key that is a list or a map, a
// second document), and the small readers every rule uses so that each broken one names the file
// and line, as "kernels.yaml:4: error: <rule>: <what and how to fix it>".
#pragma once

#include <string>

#include "switchyard/codegen/kernel_yaml.h"
#include "yaml-cpp/yaml.h"

namespace sy::codegen {

// "<file>:<line>: error: <rule>: <detail>", raised by fail().
CodegenError errorAt(const YamlSite& site, const std::string& rule, const std::string& detail);
[[noreturn]] void fail(const YamlSite& site, const std::string& rule, const std::string& detail);

YamlSite siteOf(const std::string& file, const YAML::Node& node);

// The text of `node`, which must be a scalar: a list, a map or nothing where a name is expected is
// an error of `rule` ("<what> must be a single value, not a list").
std::string scalarText(const std::string& file, const YAML::Node& node, const std::string& rule, const std::string& what);

// A C++ function kernel YAML names (`kernel_name: custom::add_out`), bound as ExecuTorch binds it:
// `native` inserted after the last namespace (custom::native::add_out; no namespace is sy::native).
// Text that is not a qualified C++ name is an error of `rule` at the node's line.
Kernel readCppFunction(const std::string& file, const YAML::Node& node, const std::string& rule);

// The text of the regular file `path`; a directory, a device or a FIFO is an error naming `display`
// (reading a FIFO would block, and reading a directory gives an empty "file").
std::string readYamlFile(const std::string& path, const std::string& display);

// The one document of `text` (named `file` in errors), after the checks of See Note [Kernel YAML is
// checked as written before it is read]. Raises CodegenError, never a yaml-cpp exception.
YAML::Node loadCheckedYaml(const std::string& text, const std::string& file);

}  // namespace sy::codegen
