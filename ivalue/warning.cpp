#include "switchyard/ivalue/warning.h"

#include <iostream>

namespace sy {
namespace {

WarningHandler default_handler;
thread_local WarningHandler* thread_handler = nullptr;

}  // namespace

void WarningHandler::process(const Warning& warning) {
  const WarningSource& where = warning.source_location();
  std::cerr << "[W " << where.file << ":" << where.line << "] Warning: " << warning.msg() << " (function " << where.function
            << ")\n";
}

WarningHandler* warningHandler() { return thread_handler != nullptr ? thread_handler : &default_handler; }

void setWarningHandler(WarningHandler* handler) { thread_handler = handler == &default_handler ? nullptr : handler; }

void warn(WarningSource source, std::string message) { warningHandler()->process(Warning(source, std::move(message))); }

}  // namespace sy
