//===- OpenClBackend.cpp - Discovery of OpenCL platforms and devices ------===//
#include "OpenClDevice.h"
#include "OpenClInfo.h"
#include "SpirvTranslator.h"

#include "sluice/Runtime/Backend.h"

namespace sluice::rt {

namespace {

using namespace opencl;

class OpenClBackend final : public Backend {
public:
  SluiceBackend kind() const override { return SLUICE_BACKEND_OPENCL; }
  void enumerate(std::vector<std::unique_ptr<Device>> &devices,
                 std::string &note) override;

private:
  std::vector<std::unique_ptr<OpenClContext>> contexts;
};

void OpenClBackend::enumerate(std::vector<std::unique_ptr<Device>> &devices,
                              std::string &note) {
  cl_uint numPlatforms = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &numPlatforms);
  if (err != CL_SUCCESS || numPlatforms == 0) {
    note = "no OpenCL platform found (is an ICD installed?)";
    return;
  }
  std::vector<cl_platform_id> platforms(numPlatforms);
  if (clGetPlatformIDs(numPlatforms, platforms.data(), nullptr) != CL_SUCCESS) {
    note = "clGetPlatformIDs failed";
    return;
  }
  bool translator = !spirvTranslatorPath().empty();
  for (cl_platform_id platform : platforms) {
    cl_uint numDevices = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &numDevices) !=
            CL_SUCCESS ||
        numDevices == 0)
      continue;
    std::vector<cl_device_id> ids(numDevices);
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, numDevices, ids.data(),
                       nullptr) != CL_SUCCESS)
      continue;
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
        0};
    cl_context context =
        clCreateContext(props, numDevices, ids.data(), nullptr, nullptr, &err);
    if (!context) {
      note = "clCreateContext failed for platform '" +
             platformString(platform, CL_PLATFORM_NAME) + "'";
      continue;
    }
    auto ctx = std::make_unique<OpenClContext>(platform, context, ids);
    for (cl_device_id id : ids) {
      std::string extensions = deviceString(id, CL_DEVICE_EXTENSIONS);
      UsmSupport usm;
      usm.intel = extensions.find("cl_intel_unified_shared_memory") !=
                      std::string::npos &&
                  ctx->intelUsm().loaded();
      usm.svm = deviceInfo<cl_device_svm_capabilities>(
          id, CL_DEVICE_SVM_CAPABILITIES);
      bool il = deviceString(id, CL_DEVICE_IL_VERSION).find("SPIR-V") !=
                std::string::npos;
      bool spir = extensions.find("cl_khr_spir") != std::string::npos;
      DeviceProperties p =
          queryProperties(platform, id, usm, il, translator && spir);
      devices.push_back(
          std::make_unique<OpenClDevice>(std::move(p), *ctx, id, usm, il));
    }
    contexts.push_back(std::move(ctx));
  }
  if (devices.empty() && note.empty())
    note = "OpenCL platforms have no devices";
}

} // namespace

std::unique_ptr<Backend> createOpenClBackend() {
  return std::make_unique<OpenClBackend>();
}

} // namespace sluice::rt
