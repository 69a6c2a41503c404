/*===- sluice-c/Runtime.h - Sluice runtime C API ------------------*- C -*-===//
 *
 * The C API of Sluice's runtime: devices, selectors, queues, USM allocations,
 * modules, kernel launches and events. The library (`libsluice-runtime.so`)
 * has no MLIR inside and can be used on its own.
 *
 * Conventions
 * - Every function returns a SluiceStatus. On failure the calling thread's
 *   last-error message (sluiceGetLastErrorMessage) says what went wrong; on
 *   success the message is left unchanged.
 * - Nothing aborts or exits the process; invalid handles that are NULL are
 *   reported as SLUICE_ERROR_INVALID_VALUE.
 * - Handles are opaque. Devices live as long as the process. Canonical
 *   queues live as long as the process; queues from sluiceQueueCreate,
 *   events and modules are reference counted (Retain/Release). Kernels are
 *   owned by their module.
 * - Output event parameters may be NULL when the caller does not need an
 *   event; the returned event is owned by the caller (release it).
 * - All functions are thread-safe.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SLUICE_C_RUNTIME_H
#define SLUICE_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SLUICE_RT_EXPORT __attribute__((visibility("default")))
#else
#define SLUICE_RT_EXPORT
#endif

/*===--------------------------- Status codes ----------------------------===*/

/* Every enum ends in a *_MAX_ENUM entry that only fixes its size to 32 bits,
 * so that out-of-range values from callers are well defined (and rejected
 * with SLUICE_ERROR_INVALID_VALUE). */

typedef enum SluiceStatus {
  SLUICE_SUCCESS = 0,
  /* An argument is invalid (NULL handle, zero size, bad enum, ...). */
  SLUICE_ERROR_INVALID_VALUE = 1,
  /* A filter selector or SLUICE_DEVICE_SELECTOR string is malformed. */
  SLUICE_ERROR_INVALID_SELECTOR = 2,
  /* No (visible) device matches the request. */
  SLUICE_ERROR_DEVICE_NOT_FOUND = 3,
  SLUICE_ERROR_OUT_OF_HOST_MEMORY = 4,
  SLUICE_ERROR_OUT_OF_DEVICE_MEMORY = 5,
  /* The device or backend cannot do what was asked. */
  SLUICE_ERROR_UNSUPPORTED = 6,
  /* A module failed to build; the message carries the build log. */
  SLUICE_ERROR_BUILD_FAILED = 7,
  /* The module has no kernel of that name. */
  SLUICE_ERROR_KERNEL_NOT_FOUND = 8,
  /* A pointer is not a (live) Sluice allocation where one is required. */
  SLUICE_ERROR_INVALID_POINTER = 9,
  /* The driver of a backend reported an error. */
  SLUICE_ERROR_BACKEND = 10,
  /* A submitted task (or one it depended on) failed. */
  SLUICE_ERROR_TASK_FAILED = 11,
  /* Profiling data is not available (event not finished). */
  SLUICE_ERROR_NOT_READY = 12,
  /* The compiler rejected a program (sluice-c/Compiler.h; diagnostics say
   * why). */
  SLUICE_ERROR_COMPILE_FAILED = 13,
  /* A named thing (file, entry function) does not exist. */
  SLUICE_ERROR_NOT_FOUND = 14,
  SLUICE_STATUS_MAX_ENUM = 0x7fffffff
} SluiceStatus;

/* The message of the last failing call on this thread ("" if none). The
 * pointer stays valid until the next Sluice call on this thread. */
SLUICE_RT_EXPORT const char *sluiceGetLastErrorMessage(void);
/* A constant name for a status, e.g. "SLUICE_ERROR_INVALID_SELECTOR". */
SLUICE_RT_EXPORT const char *sluiceStatusString(SluiceStatus status);

/*===------------------------------ Devices ------------------------------===*/

typedef struct SluiceDevice_ *SluiceDevice;
typedef struct SluiceQueue_ *SluiceQueue;
typedef struct SluiceEvent_ *SluiceEvent;
typedef struct SluiceModule_ *SluiceModule;
typedef struct SluiceKernel_ *SluiceKernel;

typedef enum SluiceBackend {
  SLUICE_BACKEND_LEVEL_ZERO = 0,
  SLUICE_BACKEND_OPENCL = 1,
  SLUICE_BACKEND_CUDA = 2,
  SLUICE_BACKEND_HOST = 3,
  SLUICE_BACKEND_COUNT = 4,
  SLUICE_BACKEND_MAX_ENUM = 0x7fffffff
} SluiceBackend;

typedef enum SluiceDeviceType {
  SLUICE_DEVICE_TYPE_GPU = 0,
  SLUICE_DEVICE_TYPE_CPU = 1,
  SLUICE_DEVICE_TYPE_ACCELERATOR = 2,
  SLUICE_DEVICE_TYPE_MAX_ENUM = 0x7fffffff
} SluiceDeviceType;

/* USM allocation kinds, as in SYCL/dpctl. UNKNOWN describes pointers that
 * Sluice did not allocate. */
typedef enum SluiceUsmKind {
  SLUICE_USM_UNKNOWN = 0,
  SLUICE_USM_DEVICE = 1,
  SLUICE_USM_SHARED = 2,
  SLUICE_USM_HOST = 3,
  SLUICE_USM_MAX_ENUM = 0x7fffffff
} SluiceUsmKind;

/* Bits of SluiceDeviceInfo::usm_capabilities. */
enum {
  SLUICE_USM_CAP_DEVICE = 1u << 0,
  SLUICE_USM_CAP_SHARED = 1u << 1,
  SLUICE_USM_CAP_HOST = 1u << 2,
};

/* Device properties. The strings live as long as the process. */
typedef struct SluiceDeviceInfo {
  SluiceBackend backend;
  SluiceDeviceType type;
  /* Normalised filter string "backend:type:index"; the index counts the
   * visible devices of the same backend and type. */
  const char *filter_string;
  const char *name;
  const char *vendor;
  const char *driver_version;
  uint32_t compute_units;
  uint64_t global_memory_bytes;
  uint64_t max_work_group_size;
  int has_fp16;
  int has_fp64;
  /* SLUICE_USM_CAP_* bits. */
  uint32_t usm_capabilities;
  /* Kinds of module binaries the device loads (1u << SluiceModuleFormat). */
  uint32_t module_formats;
} SluiceDeviceInfo;

/* Number of visible devices (all backends, after SLUICE_DEVICE_SELECTOR). */
SLUICE_RT_EXPORT SluiceStatus sluiceDeviceGetCount(uint32_t *count);
/* The index-th visible device, in the order level_zero, opencl, cuda, host. */
SLUICE_RT_EXPORT SluiceStatus sluiceDeviceGet(uint32_t index,
                                              SluiceDevice *device);
/* The device a dpctl filter selector string chooses ("gpu,cpu",
 * "opencl:cpu:0", "host", "1"). NULL or "" selects the default device: the
 * first GPU, else the host CPU. */
SLUICE_RT_EXPORT SluiceStatus sluiceDeviceSelect(const char *filter,
                                                 SluiceDevice *device);
SLUICE_RT_EXPORT SluiceStatus sluiceDeviceGetInfo(SluiceDevice device,
                                                  SluiceDeviceInfo *info);
/* Every property as text, key/value pairs numbered 0..count-1 (what
 * `sluice-ls --verbose` prints). */
SLUICE_RT_EXPORT SluiceStatus sluiceDeviceGetPropertyCount(SluiceDevice device,
                                                           uint32_t *count);
SLUICE_RT_EXPORT SluiceStatus sluiceDeviceGetProperty(SluiceDevice device,
                                                      uint32_t index,
                                                      const char **key,
                                                      const char **value);

/* The sub-devices of a device: the tiles of a multi-tile Level Zero card
 * that the driver shows as one device (ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE).
 * Other devices have none. With `devices` NULL, `*count` receives their
 * number; otherwise at most `*count` are written and `*count` receives the
 * number written. Sub-devices are devices like any other (queues,
 * allocations, modules) but are not among the visible devices; their filter
 * strings are "<parent's>.<i>" ("level_zero:gpu:0.1"), which
 * sluiceDeviceSelect accepts. */
SLUICE_RT_EXPORT SluiceStatus sluiceDeviceGetSubDevices(SluiceDevice device,
                                                        uint32_t *count,
                                                        SluiceDevice *devices);
/* The device a sub-device belongs to, NULL for a root device. */
SLUICE_RT_EXPORT SluiceStatus sluiceDeviceGetParent(SluiceDevice device,
                                                    SluiceDevice *parent);

/* Name of a backend as selectors spell it ("level_zero", "opencl", ...). */
SLUICE_RT_EXPORT const char *sluiceBackendName(SluiceBackend backend);
/* Whether the backend is built in, how many of its devices are visible, and
 * a note explaining an absence (e.g. "no OpenCL platform found"). */
SLUICE_RT_EXPORT SluiceStatus sluiceBackendGetStatus(SluiceBackend backend,
                                                     int *built_in,
                                                     uint32_t *num_devices,
                                                     const char **note);

/* Normalises a filter selector string without looking at devices: each
 * ','-separated term becomes "backend:type:index" with '*' for parts that
 * were left out ("gpu,cpu" -> "*:gpu:*,*:cpu:*"). Writes at most `size`
 * bytes including the terminating NUL; `*needed` (optional) receives the
 * size required. */
SLUICE_RT_EXPORT SluiceStatus sluiceSelectorNormalize(const char *filter,
                                                      char *buffer, size_t size,
                                                      size_t *needed);

/*===------------------------------- Queues ------------------------------===*/

/* The canonical queue of the device's default context: created once (thread
 * safely) and returned on every call. Borrowed: do not release. */
SLUICE_RT_EXPORT SluiceStatus sluiceQueueGetCanonical(SluiceDevice device,
                                                      SluiceQueue *queue);
/* A new, distinct in-order queue on the device (owned by the caller). */
SLUICE_RT_EXPORT SluiceStatus sluiceQueueCreate(SluiceDevice device,
                                                SluiceQueue *queue);
SLUICE_RT_EXPORT SluiceStatus sluiceQueueRetain(SluiceQueue queue);
SLUICE_RT_EXPORT SluiceStatus sluiceQueueRelease(SluiceQueue queue);
SLUICE_RT_EXPORT SluiceStatus sluiceQueueGetDevice(SluiceQueue queue,
                                                   SluiceDevice *device);
SLUICE_RT_EXPORT SluiceStatus sluiceQueueIsCanonical(SluiceQueue queue,
                                                     int *is_canonical);
/* Profiling (dpctl's "enable_profiling" queue property): with `enable`
 * nonzero every task submitted to the queue from then on carries profiling
 * timestamps. Off by default, where a backend may leave a task without
 * timestamps unless its event was handed out while it was the queue's newest
 * task (CUDA: a driver call per task saved; see docs/runtime.md). The
 * environment variable SLUICE_CUDA_TIMESTAMPS=on/off overrides it. */
SLUICE_RT_EXPORT SluiceStatus sluiceQueueSetProfiling(SluiceQueue queue,
                                                      int enable);
SLUICE_RT_EXPORT SluiceStatus sluiceQueueGetProfiling(SluiceQueue queue,
                                                      int *enabled);
/* Blocks until every task submitted to the queue has finished. Returns
 * SLUICE_ERROR_TASK_FAILED if one of them failed since the last wait. */
SLUICE_RT_EXPORT SluiceStatus sluiceQueueWait(SluiceQueue queue);
/* The newest task submitted to the queue, or NULL when none was (a new
 * reference: release it). Queues are in order, so its completion means
 * every earlier task's; its profiling end time is when the queue's work so
 * far ended (e.g. the end of a compiled program's last kernel). */
SLUICE_RT_EXPORT SluiceStatus sluiceQueueGetLastEvent(SluiceQueue queue,
                                                      SluiceEvent *event);
/* The backend's own handle of the queue, for working with other libraries
 * on the same queue: a CUstream (cuda), a cl_command_queue (opencl), NULL
 * (host). Borrowed: it lives as long as the queue. */
SLUICE_RT_EXPORT SluiceStatus sluiceQueueGetNativeHandle(SluiceQueue queue,
                                                         void **handle);

/*===-------------------------------- USM --------------------------------===*/

/* Allocates `bytes` (> 0) of USM memory of `kind` on the queue's device.
 * `alignment` is 0 (the device's default) or a power of two. */
SLUICE_RT_EXPORT SluiceStatus sluiceMalloc(SluiceQueue queue,
                                           SluiceUsmKind kind, size_t bytes,
                                           size_t alignment, void **ptr);
/* Frees a Sluice allocation (base pointer). Release is deferred until every
 * task submitted before this call to `queue` or to the allocation's queue,
 * and every task on any queue that received a pointer into the allocation
 * (as a copy/fill operand or a kernel argument), has finished. `queue` may
 * be NULL (the allocation's queue is used). */
SLUICE_RT_EXPORT SluiceStatus sluiceFree(SluiceQueue queue, void *ptr);

/* The caching allocator of a device (one per device, shared by its
 * queues): sluiceMalloc takes a held block of the request's size class
 * before asking the backend, and memory sluiceFree releases goes back to
 * the pool once its tasks have finished. Bytes are counted by size class. */
typedef struct SluiceMemoryPoolInfo {
  uint64_t bytes_in_use;        /* allocated and not yet released */
  uint64_t bytes_held;          /* free blocks kept for reuse */
  uint64_t high_water;          /* the most bytes_in_use has been */
  uint64_t limit;               /* cap on in use + held; 0: none */
  uint64_t hold_limit;          /* cap on held */
  uint64_t backend_allocations; /* blocks taken from the backend */
  uint64_t reused;              /* allocations served from held blocks */
} SluiceMemoryPoolInfo;
SLUICE_RT_EXPORT SluiceStatus
sluiceDeviceGetMemoryPoolInfo(SluiceDevice device, SluiceMemoryPoolInfo *info);
/* Caps the bytes the pool takes from the backend (in use + held; 0: no
 * cap). An allocation past it gives the held blocks back, then fails with
 * SLUICE_ERROR_OUT_OF_DEVICE_MEMORY (HOST for the host device). The
 * environment variable SLUICE_POOL_LIMIT sets the initial cap. */
SLUICE_RT_EXPORT SluiceStatus
sluiceDeviceSetMemoryPoolLimit(SluiceDevice device, uint64_t bytes);
/* Caps the bytes of free blocks the pool keeps (SLUICE_POOL_HOLD_BYTES;
 * default a quarter of the device's memory; 0 keeps none). */
SLUICE_RT_EXPORT SluiceStatus
sluiceDeviceSetMemoryPoolHoldLimit(SluiceDevice device, uint64_t bytes);
/* Gives every held block back to the backend (after releasing memory whose
 * tasks have finished meanwhile). */
SLUICE_RT_EXPORT SluiceStatus sluiceDeviceTrimMemoryPool(SluiceDevice device);

/* Makes memory that another library allocated (a CUDA tensor received
 * through DLPack, a host buffer) USM memory of `kind` bound to `queue`:
 * copies, fills, kernels and sluicePointerGetInfo then treat it like a
 * Sluice allocation of that queue. `kind` SLUICE_USM_UNKNOWN asks the
 * backend. The backend checks the memory where it can: cuda asks the driver
 * (device memory of the queue's device in its primary context, managed
 * memory = shared, pinned host memory = host) and registers the driver's
 * whole allocation; host accepts any memory of the process; the others
 * return SLUICE_ERROR_UNSUPPORTED. Importing memory already imported on
 * the same queue nests (each import needs its release); overlapping a
 * Sluice allocation, or an import of another queue or kind, is
 * SLUICE_ERROR_INVALID_POINTER. Sluice never frees imported memory, and
 * sluiceFree refuses it. */
SLUICE_RT_EXPORT SluiceStatus sluiceUsmImport(SluiceQueue queue,
                                              SluiceUsmKind kind, void *ptr,
                                              size_t bytes);
/* Ends one import of the memory containing `ptr`; the last one forgets it.
 * The owner may free the memory once the tasks that used it have finished:
 * `event` (may be NULL) receives a marker that completes then. */
SLUICE_RT_EXPORT SluiceStatus sluiceUsmRelease(void *ptr, SluiceEvent *event);

/* What Sluice knows about a pointer (any output may be NULL). A pointer
 * Sluice did not allocate yields SLUICE_USM_UNKNOWN and NULL device/queue;
 * interior pointers are recognised. The queue is borrowed. */
SLUICE_RT_EXPORT SluiceStatus sluicePointerGetInfo(const void *ptr,
                                                   SluiceUsmKind *kind,
                                                   SluiceDevice *device,
                                                   SluiceQueue *queue,
                                                   void **base, size_t *size);

/* Asynchronous copy of `bytes` from src to dst, after the `deps` events.
 * Either side may be USM memory of any kind on any device, or plain host
 * memory; memory the queue cannot reach is staged through the host. */
SLUICE_RT_EXPORT SluiceStatus sluiceMemcpy(SluiceQueue queue, void *dst,
                                           const void *src, size_t bytes,
                                           uint32_t num_deps,
                                           const SluiceEvent *deps,
                                           SluiceEvent *event);
/* Sets `bytes` bytes of dst to (unsigned char)value. */
SLUICE_RT_EXPORT SluiceStatus sluiceMemset(SluiceQueue queue, void *dst,
                                           int value, size_t bytes,
                                           uint32_t num_deps,
                                           const SluiceEvent *deps,
                                           SluiceEvent *event);
/* Repeats a pattern of pattern_size bytes (1, 2, 4, ..., 128) over `bytes`
 * bytes of dst (a multiple of pattern_size). dst must be memory the queue
 * reaches (its own allocations, or host-accessible ones on host queues). */
SLUICE_RT_EXPORT SluiceStatus sluiceFill(SluiceQueue queue, void *dst,
                                         const void *pattern,
                                         size_t pattern_size, size_t bytes,
                                         uint32_t num_deps,
                                         const SluiceEvent *deps,
                                         SluiceEvent *event);

/*===------------------------------- Events ------------------------------===*/

typedef enum SluiceEventStatus {
  SLUICE_EVENT_QUEUED = 0,
  SLUICE_EVENT_SUBMITTED = 1,
  SLUICE_EVENT_RUNNING = 2,
  SLUICE_EVENT_COMPLETE = 3,
  SLUICE_EVENT_ERROR = 4,
  SLUICE_EVENT_MAX_ENUM = 0x7fffffff
} SluiceEventStatus;

SLUICE_RT_EXPORT SluiceStatus sluiceEventGetStatus(SluiceEvent event,
                                                   SluiceEventStatus *status);
/* Blocks until the task finished; SLUICE_ERROR_TASK_FAILED if it failed. */
SLUICE_RT_EXPORT SluiceStatus sluiceEventWait(SluiceEvent event);
SLUICE_RT_EXPORT SluiceStatus sluiceEventsWait(uint32_t num_events,
                                               const SluiceEvent *events);
/* Timestamps in nanoseconds of a finished task: submission, start and end
 * (host backend: steady clock; OpenCL: the device's profiling clock). Any
 * output may be NULL. */
SLUICE_RT_EXPORT SluiceStatus sluiceEventGetProfilingInfo(SluiceEvent event,
                                                          uint64_t *submit_ns,
                                                          uint64_t *start_ns,
                                                          uint64_t *end_ns);
SLUICE_RT_EXPORT SluiceStatus sluiceEventRetain(SluiceEvent event);
SLUICE_RT_EXPORT SluiceStatus sluiceEventRelease(SluiceEvent event);

/*===--------------------------- Modules, kernels ------------------------===*/

typedef enum SluiceModuleFormat {
  /* A SPIR-V module (OpenCL/Level Zero Kernel capability). */
  SLUICE_MODULE_SPIRV = 0,
  /* A native ELF shared object for the host backend (see the host ABI). */
  SLUICE_MODULE_NATIVE_OBJECT = 1,
  SLUICE_MODULE_PTX = 2,
  SLUICE_MODULE_CUBIN = 3,
  SLUICE_MODULE_MAX_ENUM = 0x7fffffff
} SluiceModuleFormat;

/* Loads and builds a module for the device's default context. Modules are
 * cached by (context, format, bytes): the same binary yields the same
 * module (a new reference). On a failed build the status is
 * SLUICE_ERROR_BUILD_FAILED, the last-error message contains the build log
 * and sluiceGetLastBuildLog returns the log alone. */
SLUICE_RT_EXPORT SluiceStatus sluiceModuleCreate(SluiceDevice device,
                                                 SluiceModuleFormat format,
                                                 const void *bytes, size_t size,
                                                 SluiceModule *module);
/* The build log of the last module build that failed on this thread. */
SLUICE_RT_EXPORT const char *sluiceGetLastBuildLog(void);
/* The build log (warnings) of a built module; never NULL. */
SLUICE_RT_EXPORT SluiceStatus sluiceModuleGetBuildLog(SluiceModule module,
                                                      const char **log);
SLUICE_RT_EXPORT SluiceStatus sluiceModuleRetain(SluiceModule module);
SLUICE_RT_EXPORT SluiceStatus sluiceModuleRelease(SluiceModule module);
/* The module's kernel `name`; owned by the module. */
SLUICE_RT_EXPORT SluiceStatus sluiceKernelGet(SluiceModule module,
                                              const char *name,
                                              SluiceKernel *kernel);

/* One kernel argument: a pointer to its value and the value's size. A USM
 * pointer argument is passed as {&ptr, sizeof(void *)}. The runtime copies
 * the values before sluiceLaunch returns. */
typedef struct SluiceKernelArg {
  const void *value;
  size_t size;
} SluiceKernelArg;

/* Launches `grid` workgroups of `local` work-items each (all entries >= 1;
 * the product of `local` at most the device's max_work_group_size) on the
 * queue, after the `deps` events. The kernel's module must belong to the
 * queue's context. */
SLUICE_RT_EXPORT SluiceStatus sluiceLaunch(
    SluiceQueue queue, SluiceKernel kernel, const uint64_t grid[3],
    const uint64_t local[3], uint32_t num_args, const SluiceKernelArg *args,
    uint32_t num_deps, const SluiceEvent *deps, SluiceEvent *event);

/*===------------------------ Host backend kernel ABI --------------------===*/

/* A host-backend module is an ELF shared object (SLUICE_MODULE_NATIVE_OBJECT)
 * that exports each kernel as a C symbol of type SluiceHostKernelFn:
 *
 *   void my_kernel(void **args, const SluiceHostGroup *group);
 *
 * The runtime calls it once per workgroup, from a pool of
 * std::thread::hardware_concurrency() threads; workgroups of one launch may
 * run concurrently and in any order. The kernel itself loops over the
 * local_size[0] * local_size[1] * local_size[2] work-items of its group
 * (global id = group_id[d] * local_size[d] + local id). args[i] points to a
 * copy of the i-th argument's value (for a USM pointer argument, args[i] is
 * a `void **`). */
typedef struct SluiceHostGroup {
  uint64_t group_id[3];
  uint64_t num_groups[3];
  uint64_t local_size[3];
} SluiceHostGroup;

typedef void (*SluiceHostKernelFn)(void **args, const SluiceHostGroup *group);

/* A host-backend module whose kernels are functions of this process (linked
 * into the program or JIT-compiled) rather than symbols of a shared object:
 * kernel `names[i]` calls `fns[i]` with the ABI above. `count` >= 1; names
 * must be non-empty and distinct, functions non-NULL. The functions must
 * stay callable while the module or a launch of it lives. Every call makes a
 * new module (no caching), owned by the caller. Devices of other backends
 * fail with SLUICE_ERROR_UNSUPPORTED. */
SLUICE_RT_EXPORT SluiceStatus sluiceModuleCreateHostFunctions(
    SluiceDevice device, uint32_t count, const char *const *names,
    const SluiceHostKernelFn *fns, SluiceModule *module);

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_C_RUNTIME_H */
