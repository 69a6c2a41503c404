# lit configuration for Sluice's IR, tool and integration tests.
import os
import shutil

import lit.formats

config.name = "Sluice"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sluice_obj_root, "test")
config.excludes = [
    "lit.cfg.py",
    "lit.site.cfg.py",
    "CMakeLists.txt",
    "Inputs",
    "Runtime",
    "python",
    "CAPI",
    "LevelZeroDriver",
]

# Tools: ours first, then LLVM's (FileCheck, not, count).
path = [config.sluice_tools_dir, config.llvm_tools_dir]
config.environment["PATH"] = os.pathsep.join(
    path + [config.environment.get("PATH", os.environ.get("PATH", ""))]
)
for var in (
    "SLUICE_DEVICE_SELECTOR",
    "HOME",
    "TMPDIR",
    "OCL_ICD_VENDORS",
    "POCL_CACHE_DIR",
):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%sluice_src", config.sluice_src_root))
config.substitutions.append(("%mlir_tblgen", config.mlir_tblgen))
config.substitutions.append(("%python", config.python or "python3"))

# Features for REQUIRES: gates; each reflects what this machine has.
if config.enable_compiler:
    config.available_features.add("compiler")
if config.enable_runtime:
    config.available_features.add("runtime")
if config.have_opencl:
    config.available_features.add("opencl")
# A usable OpenCL device at test time (not just the loader at build time).
if config.have_opencl and shutil.which("clinfo"):
    import subprocess

    try:
        listing = subprocess.run(
            ["clinfo", "-l"], capture_output=True, text=True, timeout=60
        ).stdout
    except (OSError, subprocess.SubprocessError):
        listing = ""
    if "Device" in listing:
        config.available_features.add("opencl-device")
        # Half-precision arithmetic (cl_khr_fp16) on the OpenCL devices.
        try:
            details = subprocess.run(
                ["clinfo"], capture_output=True, text=True, timeout=60
            ).stdout
        except (OSError, subprocess.SubprocessError):
            details = ""
        if "cl_khr_fp16" in details:
            config.available_features.add("opencl-fp16")
if config.have_level_zero:
    config.available_features.add("level-zero")
# Sluice's Level Zero test driver (test/LevelZeroDriver, PoCL underneath):
# `%ze_env CMD` runs CMD with it enabled under the loader's validation layer,
# so that `--device=level_zero:gpu:0` runs on it. The feature says it works
# here: built, and listing its device.
ze_env_script = os.path.join(config.sluice_tools_dir, "sluice-ze-test-env")
if (
    config.have_level_zero
    and config.ze_test_driver
    and os.path.exists(config.ze_test_driver)
    and os.path.exists(ze_env_script)
    and "opencl-device" in config.available_features
):
    import subprocess

    try:
        listing = subprocess.run(
            [
                ze_env_script,
                "--validation",
                os.path.join(config.sluice_tools_dir, "sluice-ls"),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        listing = ""
    if "[level_zero:gpu:0]" in listing:
        config.available_features.add("level-zero-driver")
config.substitutions.append(("%ze_env", ze_env_script + " --validation"))
if config.have_spirv_tools:
    config.available_features.add("spirv-tools")
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
if config.llvm_spirv and os.path.exists(config.llvm_spirv):
    config.available_features.add("llvm-spirv")
if shutil.which("spirv-dis"):
    config.available_features.add("spirv-dis")
if shutil.which("dot"):
    config.available_features.add("graphviz")
# An x86-64 host with AVX2 and glibc's libmvec: host kernels call its 8-wide
# vector math (docs/accuracy.md).
try:
    with open("/proc/cpuinfo") as f:
        cpuinfo = f.read()
    if " avx2" in cpuinfo:
        # Host kernels' reduction loops vectorise (docs/codegen.md).
        config.available_features.add("host-avx2")
        if any(
            os.path.exists(os.path.join(d, "libmvec.so.1"))
            for d in (
                "/lib/x86_64-linux-gnu",
                "/usr/lib/x86_64-linux-gnu",
                "/lib64",
                "/usr/lib64",
            )
        ):
            config.available_features.add("host-avx2-libmvec")
except OSError:
    pass
config.substitutions.append(("%mlir_include", "/usr/lib/llvm-22/include"))
