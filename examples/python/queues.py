"""Explicit queues: every Queue is distinct, arrays carry theirs, and
queue.wait() waits for the work submitted to it.

    python examples/python/queues.py [DEVICE]
"""

import sys

import sluice

device = sluice.Device(sys.argv[1] if len(sys.argv) > 1 else None)

q1 = sluice.Queue(device)  # a new in-order queue
q2 = sluice.Queue(device)  # another one, distinct from q1
print(q1, q2, "same queue:", q1 == q2)
print("canonical queue of the device:", device.sycl_queue)

a = sluice.linspace(0.0, 1.0, 5, sycl_queue=q1)
b = sluice.full(5, 2.0, sycl_queue=q2)
print("a on", a.sycl_queue, "; b on", b.sycl_queue)

# dpctl.tensor.Device.create_device: a placement bound to a queue.
placement = sluice.Device.create_device(q1)
c = sluice.zeros(5, device=placement)
print("c on q1:", c.sycl_queue is q1)

# Naming two different queues for one array is an error.
try:
    sluice.zeros(3, device=device, sycl_queue=q1)
except TypeError as e:
    print("TypeError:", e)

r = a * b.to_device(q1)  # both on q1 now
q1.wait()  # everything submitted to q1 has finished
print("r =", sluice.asnumpy(r))
