//===- SpirvTranslator.cpp - SPIR-V to SPIR 1.2 via llvm-spirv ------------===//
#include "SpirvTranslator.h"

#include "sluice/Runtime/ErrorState.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef SLUICE_LLVM_SPIRV_PATH
#define SLUICE_LLVM_SPIRV_PATH ""
#endif

namespace sluice::rt::opencl {

std::string spirvTranslatorPath() {
  if (const char *env = std::getenv("SLUICE_LLVM_SPIRV"); env && *env)
    return env;
  return SLUICE_LLVM_SPIRV_PATH;
}

namespace {

/// A private temporary directory removed with its files on scope exit.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base && *base ? base : "/tmp") + "/sluice-spirv-XXXXXX";
    if (::mkdtemp(tmpl.data()))
      path = tmpl;
  }
  ~TempDir() {
    for (const std::string &f : files)
      ::unlink(f.c_str());
    if (!path.empty())
      ::rmdir(path.c_str());
  }
  bool ok() const { return !path.empty(); }
  std::string file(const char *name) {
    files.push_back(path + "/" + name);
    return files.back();
  }

private:
  std::string path;
  std::vector<std::string> files;
};

bool writeFile(const std::string &path, const void *bytes, size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char *>(bytes),
            static_cast<std::streamsize>(size));
  return static_cast<bool>(out);
}

std::vector<char> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

} // namespace

SluiceStatus translateSpirvToSpir(const void *bytes, size_t size,
                                  std::vector<char> &bitcode,
                                  std::string &log) {
  std::string tool = spirvTranslatorPath();
  if (tool.empty()) {
    log = "the device takes no SPIR-V IL and no llvm-spirv translator is "
          "available (set SLUICE_LLVM_SPIRV)";
    return SLUICE_ERROR_BUILD_FAILED;
  }
  TempDir dir;
  if (!dir.ok()) {
    log = "cannot create a temporary directory: " +
          std::string(std::strerror(errno));
    return SLUICE_ERROR_BUILD_FAILED;
  }
  std::string in = dir.file("module.spv"), out = dir.file("module.bc"),
              output = dir.file("translator.log");
  if (!writeFile(in, bytes, size)) {
    log = "cannot write " + in;
    return SLUICE_ERROR_BUILD_FAILED;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<std::string> argStrings = {tool, "-r", in, "-o", out};
  std::vector<char *> argv;
  for (std::string &a : argStrings)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int spawnError =
      posix_spawn(&pid, tool.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawnError) {
    log = "cannot run the SPIR-V translator '" + tool +
          "': " + std::strerror(spawnError);
    return SLUICE_ERROR_BUILD_FAILED;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::vector<char> text = readFile(output);
  std::string message(text.begin(), text.end());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    log = "'" + tool + " -r' could not translate the SPIR-V module" +
          (WIFEXITED(status)
               ? " (exit status " + std::to_string(WEXITSTATUS(status)) + ")"
               : std::string(" (killed by a signal)")) +
          (message.empty() ? "" : ":\n" + message);
    return SLUICE_ERROR_BUILD_FAILED;
  }
  bitcode = readFile(out);
  if (bitcode.empty()) {
    log = "the SPIR-V translator produced no output";
    return SLUICE_ERROR_BUILD_FAILED;
  }
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt::opencl
