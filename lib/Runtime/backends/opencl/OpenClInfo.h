//===- OpenClInfo.h - Typed clGet*Info helpers ------------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_OPENCL_OPENCLINFO_H
#define SLUICE_LIB_RUNTIME_OPENCL_OPENCLINFO_H

#include <CL/cl.h>
#include <string>

namespace sluice::rt::opencl {

/// A scalar device property; zero when the query fails.
template <typename T> T deviceInfo(cl_device_id device, cl_device_info what) {
  T value{};
  if (clGetDeviceInfo(device, what, sizeof value, &value, nullptr) !=
      CL_SUCCESS)
    return T{};
  return value;
}

inline std::string trimNul(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' '))
    s.pop_back();
  return s;
}

inline std::string deviceString(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || !size)
    return "";
  std::string s(size, '\0');
  if (clGetDeviceInfo(device, what, size, s.data(), nullptr) != CL_SUCCESS)
    return "";
  return trimNul(s);
}

inline std::string platformString(cl_platform_id platform,
                                  cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS ||
      !size)
    return "";
  std::string s(size, '\0');
  if (clGetPlatformInfo(platform, what, size, s.data(), nullptr) != CL_SUCCESS)
    return "";
  return trimNul(s);
}

} // namespace sluice::rt::opencl

#endif // SLUICE_LIB_RUNTIME_OPENCL_OPENCLINFO_H
