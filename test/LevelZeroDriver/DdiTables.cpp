//===- DdiTables.cpp - The tables the Level Zero loader asks drivers for --===//
//
// The loader (1.8) looks up every zeGet*/zetGet*/zesGet*ProcAddrTable of a
// driver and drops the driver from zeInit when one is missing, so all are
// exported. Entries the driver does not implement stay null: the loader
// (and its validation layer) answer calls to them with an error.
//
//===----------------------------------------------------------------------===//
#include "DriverState.h"

#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

using namespace sluice::zetest;

namespace {

template <typename Table>
ze_result_t fill(ze_api_version_t version, Table *table,
                 void (*filler)(Table &) = nullptr) {
  if (!table)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT))
    return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
  *table = Table{};
  if (filler)
    filler(*table);
  return ZE_RESULT_SUCCESS;
}

} // namespace

#define SLUICE_ZE_EXPORT extern "C" __attribute__((visibility("default")))

// clang-format off
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetGlobalProcAddrTable(ze_api_version_t v, ze_global_dditable_t *t) { return fill(v, t, fillGlobalTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetDriverProcAddrTable(ze_api_version_t v, ze_driver_dditable_t *t) { return fill(v, t, fillDriverTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(ze_api_version_t v, ze_device_dditable_t *t) { return fill(v, t, fillDeviceTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetDeviceExpProcAddrTable(ze_api_version_t v, ze_device_exp_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetContextProcAddrTable(ze_api_version_t v, ze_context_dditable_t *t) { return fill(v, t, fillContextTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetCommandQueueProcAddrTable(ze_api_version_t v, ze_command_queue_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetCommandListProcAddrTable(ze_api_version_t v, ze_command_list_dditable_t *t) { return fill(v, t, fillCommandListTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetImageProcAddrTable(ze_api_version_t v, ze_image_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetImageExpProcAddrTable(ze_api_version_t v, ze_image_exp_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetFenceProcAddrTable(ze_api_version_t v, ze_fence_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetEventPoolProcAddrTable(ze_api_version_t v, ze_event_pool_dditable_t *t) { return fill(v, t, fillEventPoolTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetEventProcAddrTable(ze_api_version_t v, ze_event_dditable_t *t) { return fill(v, t, fillEventTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetEventExpProcAddrTable(ze_api_version_t v, ze_event_exp_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetModuleProcAddrTable(ze_api_version_t v, ze_module_dditable_t *t) { return fill(v, t, fillModuleTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetModuleBuildLogProcAddrTable(ze_api_version_t v, ze_module_build_log_dditable_t *t) { return fill(v, t, fillModuleBuildLogTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetKernelProcAddrTable(ze_api_version_t v, ze_kernel_dditable_t *t) { return fill(v, t, fillKernelTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetKernelExpProcAddrTable(ze_api_version_t v, ze_kernel_exp_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetSamplerProcAddrTable(ze_api_version_t v, ze_sampler_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetPhysicalMemProcAddrTable(ze_api_version_t v, ze_physical_mem_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetMemProcAddrTable(ze_api_version_t v, ze_mem_dditable_t *t) { return fill(v, t, fillMemTable); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetVirtualMemProcAddrTable(ze_api_version_t v, ze_virtual_mem_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetFabricVertexExpProcAddrTable(ze_api_version_t v, ze_fabric_vertex_exp_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zeGetFabricEdgeExpProcAddrTable(ze_api_version_t v, ze_fabric_edge_exp_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetDeviceProcAddrTable(ze_api_version_t v, zet_device_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetContextProcAddrTable(ze_api_version_t v, zet_context_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetCommandListProcAddrTable(ze_api_version_t v, zet_command_list_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetModuleProcAddrTable(ze_api_version_t v, zet_module_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetKernelProcAddrTable(ze_api_version_t v, zet_kernel_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetMetricGroupProcAddrTable(ze_api_version_t v, zet_metric_group_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetMetricGroupExpProcAddrTable(ze_api_version_t v, zet_metric_group_exp_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetMetricProcAddrTable(ze_api_version_t v, zet_metric_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetMetricStreamerProcAddrTable(ze_api_version_t v, zet_metric_streamer_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetMetricQueryPoolProcAddrTable(ze_api_version_t v, zet_metric_query_pool_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetMetricQueryProcAddrTable(ze_api_version_t v, zet_metric_query_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetTracerExpProcAddrTable(ze_api_version_t v, zet_tracer_exp_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zetGetDebugProcAddrTable(ze_api_version_t v, zet_debug_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetDriverProcAddrTable(ze_api_version_t v, zes_driver_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetDeviceProcAddrTable(ze_api_version_t v, zes_device_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetSchedulerProcAddrTable(ze_api_version_t v, zes_scheduler_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetPerformanceFactorProcAddrTable(ze_api_version_t v, zes_performance_factor_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetPowerProcAddrTable(ze_api_version_t v, zes_power_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetFrequencyProcAddrTable(ze_api_version_t v, zes_frequency_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetEngineProcAddrTable(ze_api_version_t v, zes_engine_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetStandbyProcAddrTable(ze_api_version_t v, zes_standby_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetFirmwareProcAddrTable(ze_api_version_t v, zes_firmware_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetMemoryProcAddrTable(ze_api_version_t v, zes_memory_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetFabricPortProcAddrTable(ze_api_version_t v, zes_fabric_port_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetTemperatureProcAddrTable(ze_api_version_t v, zes_temperature_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetPsuProcAddrTable(ze_api_version_t v, zes_psu_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetFanProcAddrTable(ze_api_version_t v, zes_fan_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetLedProcAddrTable(ze_api_version_t v, zes_led_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetRasProcAddrTable(ze_api_version_t v, zes_ras_dditable_t *t) { return fill(v, t); }
SLUICE_ZE_EXPORT ze_result_t ZE_APICALL zesGetDiagnosticsProcAddrTable(ze_api_version_t v, zes_diagnostics_dditable_t *t) { return fill(v, t); }
// clang-format on
