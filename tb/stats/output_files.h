// Output files that survive interrupts: results are written to a temporary file in the same
// folder and renamed over the old one, so a reader, a Ctrl-C or a full disk leaves either the
// previous file or the new one, never a truncated mix (rename is atomic within a file system).
// SIGINT and SIGTERM wait while a file is written and renamed (a few milliseconds), so an
// interrupt leaves no temporary file behind either.
#pragma once
#include <string>

namespace ibsc::tb {

// Throws std::runtime_error naming `path` when the folder is not writable or the disk is full.
void write_file_atomically(const std::string& path, const std::string& text);

// Creates `dir` (and its parents) and proves it writable by creating and removing a file in
// it: run before hours of simulation, not after. `what` names the setting in the message
// ("--out").
void check_output_folder(const std::string& dir, const std::string& what);

}  // namespace ibsc::tb
