//===- Artifact.h - Loading ahead-of-time compiled programs -----*- C++ -*-===//
//
// An artifact is what `sluice-compile` writes: a shared object holding a
// program's host code, host kernels and device binaries, linked against
// libsluice-runtime.so. Besides an entry point `int32_t _sluice_entry_f(void
// **args)` per public function @f, it exports two NUL-terminated strings:
//
//   sluice_signatures        one EntrySignature::toString() per entry point,
//                            separated by newlines
//   sluice_compiler_version  the Sluice and MLIR versions that compiled it
//
// The file ends with a trailer of kArtifactTrailerSize bytes that seals it:
//
//   "SLUICE\x01\x00"  u64 content size  u64 checksum  "SEALED\x00\x00"
//
// (integers little-endian), where the checksum is artifactChecksum() of the
// first `content size` bytes, which are the whole file before the trailer.
// The dynamic loader ignores bytes after an ELF file's last section. load()
// reads the file and checks the seal before dlopen: a truncated or damaged
// artifact is an error, never a crash inside the loader or a call into
// damaged code.
//
// Loading needs no MLIR: the tools, the C API and Python share this code.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_EXECUTION_ARTIFACT_H
#define SLUICE_EXECUTION_ARTIFACT_H

#include "sluice/Execution/EntrySignature.h"
#include "sluice/Execution/Invoker.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sluice::exec {

/// The symbols an artifact exports.
inline constexpr const char *kSignaturesSymbol = "sluice_signatures";
inline constexpr const char *kCompilerVersionSymbol = "sluice_compiler_version";
inline constexpr const char *kEntryPointPrefix = "_sluice_entry_";

/// Size of the trailer that seals an artifact.
inline constexpr size_t kArtifactTrailerSize = 32;

/// The 64-bit checksum that seals an artifact's contents.
uint64_t artifactChecksum(const uint8_t *data, size_t size);

/// The trailer that seals `contentSize` bytes with checksum `checksum`.
std::string artifactTrailer(uint64_t contentSize, uint64_t checksum);

/// Seals the shared object at `path` by appending the trailer
/// (sluice-compile does this for every artifact it writes).
io::Status sealArtifactFile(const std::string &path);

/// Checks the seal of the artifact at `path` (see above): fails, saying
/// why, when the file cannot be read, has no trailer (truncated, or not
/// written by this version of sluice-compile) or its checksum differs
/// (damaged).
io::Status verifyArtifactFile(const std::string &path);

/// Whether the file starts with the ELF magic number (an artifact, or some
/// other ELF file, as opposed to MLIR text or bytecode).
bool isElfFile(const std::string &path);

/// A loaded artifact. The shared object stays mapped for the life of the
/// process, even after the Artifact is gone: the runtime caches modules and
/// host kernels by the addresses of the program's code and data.
class Artifact {
public:
  /// Checks the seal of `path`, loads it (dlopen, RTLD_NOW | RTLD_LOCAL)
  /// and reads its signatures. Fails, saying why, when the file cannot be
  /// opened, is not a shared object, is truncated or damaged, lacks the symbols
  /// of an artifact, holds a malformed signature or lacks the entry point of
  /// one of its signatures.
  static io::Result<std::unique_ptr<Artifact>> load(const std::string &path);
  ~Artifact();
  Artifact(const Artifact &) = delete;
  Artifact &operator=(const Artifact &) = delete;

  const std::string &path() const { return filePath; }
  const std::string &compilerVersion() const { return version; }
  /// One per entry point, in the order the artifact lists them.
  const std::vector<EntrySignature> &signatures() const { return sigs; }

  /// The signature of the entry to run: `name` if given, else `main`, else
  /// the only one.
  io::Result<const EntrySignature *> findEntry(const std::string &name) const;
  /// The entry point of entry `name` (as listed in signatures()).
  io::Result<EntryFunction> entry(const std::string &name) const;
  /// The address of entry `name`'s `int32_t (void **)` entry point.
  io::Result<void *> entryAddress(const std::string &name) const;

private:
  Artifact() = default;
  void *handle = nullptr;
  std::string filePath, version;
  std::vector<EntrySignature> sigs;
};

} // namespace sluice::exec

#endif // SLUICE_EXECUTION_ARTIFACT_H
