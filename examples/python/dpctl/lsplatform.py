"""Listing platforms (dpctl.lsplatform, dpctl.get_platforms).

python examples/python/dpctl/lsplatform.py [filter-string]
"""

import sluice.compat

sluice.compat.install_aliases()

import dpctl  # noqa: E402

print("== verbosity 0")
dpctl.lsplatform()
print("== verbosity 1")
dpctl.lsplatform(1)
print("== verbosity 2")
dpctl.lsplatform(verbosity=2)

print("== get_platforms()")
for p in dpctl.get_platforms():
    devices = p.get_devices()
    print(
        f"{p.name} ({p.backend.name}), {len(devices)} device(s):",
        ", ".join(d.filter_string for d in devices),
    )
    ctx = p.default_context
    print("  default context holds", ctx.device_count, "device(s)")
