// Full reductions on a CUDA device (bench/reduce_check.py runs them against
// NumPy on the GPU machine): sum, prod, max and min of a 1-d array of every
// element type (max and min of i1 are any and all; mean is the sum's
// kernel), dynamic length so that one artifact takes every size.

func.func @r_f32(%a: !usm.array<?xf32, "cuda:gpu:0", device>) -> (!usm.array<f32, "cuda:gpu:0", device>, !usm.array<f32, "cuda:gpu:0", device>, !usm.array<f32, "cuda:gpu:0", device>, !usm.array<f32, "cuda:gpu:0", device>) {
  %0 = usm.sum %a : !usm.array<?xf32, "cuda:gpu:0", device> -> !usm.array<f32, "cuda:gpu:0", device>
  %1 = usm.prod %a : !usm.array<?xf32, "cuda:gpu:0", device> -> !usm.array<f32, "cuda:gpu:0", device>
  %2 = usm.max %a : !usm.array<?xf32, "cuda:gpu:0", device> -> !usm.array<f32, "cuda:gpu:0", device>
  %3 = usm.min %a : !usm.array<?xf32, "cuda:gpu:0", device> -> !usm.array<f32, "cuda:gpu:0", device>
  return %0, %1, %2, %3 : !usm.array<f32, "cuda:gpu:0", device>, !usm.array<f32, "cuda:gpu:0", device>, !usm.array<f32, "cuda:gpu:0", device>, !usm.array<f32, "cuda:gpu:0", device>
}

func.func @r_f64(%a: !usm.array<?xf64, "cuda:gpu:0", device>) -> (!usm.array<f64, "cuda:gpu:0", device>, !usm.array<f64, "cuda:gpu:0", device>, !usm.array<f64, "cuda:gpu:0", device>, !usm.array<f64, "cuda:gpu:0", device>) {
  %0 = usm.sum %a : !usm.array<?xf64, "cuda:gpu:0", device> -> !usm.array<f64, "cuda:gpu:0", device>
  %1 = usm.prod %a : !usm.array<?xf64, "cuda:gpu:0", device> -> !usm.array<f64, "cuda:gpu:0", device>
  %2 = usm.max %a : !usm.array<?xf64, "cuda:gpu:0", device> -> !usm.array<f64, "cuda:gpu:0", device>
  %3 = usm.min %a : !usm.array<?xf64, "cuda:gpu:0", device> -> !usm.array<f64, "cuda:gpu:0", device>
  return %0, %1, %2, %3 : !usm.array<f64, "cuda:gpu:0", device>, !usm.array<f64, "cuda:gpu:0", device>, !usm.array<f64, "cuda:gpu:0", device>, !usm.array<f64, "cuda:gpu:0", device>
}

func.func @r_f16(%a: !usm.array<?xf16, "cuda:gpu:0", device>) -> (!usm.array<f16, "cuda:gpu:0", device>, !usm.array<f16, "cuda:gpu:0", device>, !usm.array<f16, "cuda:gpu:0", device>) {
  %0 = usm.sum %a : !usm.array<?xf16, "cuda:gpu:0", device> -> !usm.array<f16, "cuda:gpu:0", device>
  %1 = usm.max %a : !usm.array<?xf16, "cuda:gpu:0", device> -> !usm.array<f16, "cuda:gpu:0", device>
  %2 = usm.min %a : !usm.array<?xf16, "cuda:gpu:0", device> -> !usm.array<f16, "cuda:gpu:0", device>
  return %0, %1, %2 : !usm.array<f16, "cuda:gpu:0", device>, !usm.array<f16, "cuda:gpu:0", device>, !usm.array<f16, "cuda:gpu:0", device>
}

func.func @r_i32(%a: !usm.array<?xi32, "cuda:gpu:0", device>) -> (!usm.array<i64, "cuda:gpu:0", device>, !usm.array<i64, "cuda:gpu:0", device>, !usm.array<i32, "cuda:gpu:0", device>, !usm.array<i32, "cuda:gpu:0", device>) {
  %0 = usm.sum %a : !usm.array<?xi32, "cuda:gpu:0", device> -> !usm.array<i64, "cuda:gpu:0", device>
  %1 = usm.prod %a : !usm.array<?xi32, "cuda:gpu:0", device> -> !usm.array<i64, "cuda:gpu:0", device>
  %2 = usm.max %a : !usm.array<?xi32, "cuda:gpu:0", device> -> !usm.array<i32, "cuda:gpu:0", device>
  %3 = usm.min %a : !usm.array<?xi32, "cuda:gpu:0", device> -> !usm.array<i32, "cuda:gpu:0", device>
  return %0, %1, %2, %3 : !usm.array<i64, "cuda:gpu:0", device>, !usm.array<i64, "cuda:gpu:0", device>, !usm.array<i32, "cuda:gpu:0", device>, !usm.array<i32, "cuda:gpu:0", device>
}

func.func @r_i64(%a: !usm.array<?xi64, "cuda:gpu:0", device>) -> (!usm.array<i64, "cuda:gpu:0", device>, !usm.array<i64, "cuda:gpu:0", device>, !usm.array<i64, "cuda:gpu:0", device>, !usm.array<i64, "cuda:gpu:0", device>) {
  %0 = usm.sum %a : !usm.array<?xi64, "cuda:gpu:0", device> -> !usm.array<i64, "cuda:gpu:0", device>
  %1 = usm.prod %a : !usm.array<?xi64, "cuda:gpu:0", device> -> !usm.array<i64, "cuda:gpu:0", device>
  %2 = usm.max %a : !usm.array<?xi64, "cuda:gpu:0", device> -> !usm.array<i64, "cuda:gpu:0", device>
  %3 = usm.min %a : !usm.array<?xi64, "cuda:gpu:0", device> -> !usm.array<i64, "cuda:gpu:0", device>
  return %0, %1, %2, %3 : !usm.array<i64, "cuda:gpu:0", device>, !usm.array<i64, "cuda:gpu:0", device>, !usm.array<i64, "cuda:gpu:0", device>, !usm.array<i64, "cuda:gpu:0", device>
}

func.func @r_i8(%a: !usm.array<?xi8, "cuda:gpu:0", device>) -> (!usm.array<i64, "cuda:gpu:0", device>, !usm.array<i8, "cuda:gpu:0", device>, !usm.array<i8, "cuda:gpu:0", device>) {
  %0 = usm.sum %a : !usm.array<?xi8, "cuda:gpu:0", device> -> !usm.array<i64, "cuda:gpu:0", device>
  %1 = usm.max %a : !usm.array<?xi8, "cuda:gpu:0", device> -> !usm.array<i8, "cuda:gpu:0", device>
  %2 = usm.min %a : !usm.array<?xi8, "cuda:gpu:0", device> -> !usm.array<i8, "cuda:gpu:0", device>
  return %0, %1, %2 : !usm.array<i64, "cuda:gpu:0", device>, !usm.array<i8, "cuda:gpu:0", device>, !usm.array<i8, "cuda:gpu:0", device>
}

func.func @r_i1(%a: !usm.array<?xi1, "cuda:gpu:0", device>) -> (!usm.array<i1, "cuda:gpu:0", device>, !usm.array<i1, "cuda:gpu:0", device>) {
  %0 = usm.max %a : !usm.array<?xi1, "cuda:gpu:0", device> -> !usm.array<i1, "cuda:gpu:0", device>
  %1 = usm.min %a : !usm.array<?xi1, "cuda:gpu:0", device> -> !usm.array<i1, "cuda:gpu:0", device>
  return %0, %1 : !usm.array<i1, "cuda:gpu:0", device>, !usm.array<i1, "cuda:gpu:0", device>
}

// sum and prod alone (reduce_check.py: of an empty array, 0 and 1, where
// max and min fail).
func.func @sp_f32(%a: !usm.array<?xf32, "cuda:gpu:0", device>) -> (!usm.array<f32, "cuda:gpu:0", device>, !usm.array<f32, "cuda:gpu:0", device>) {
  %0 = usm.sum %a : !usm.array<?xf32, "cuda:gpu:0", device> -> !usm.array<f32, "cuda:gpu:0", device>
  %1 = usm.prod %a : !usm.array<?xf32, "cuda:gpu:0", device> -> !usm.array<f32, "cuda:gpu:0", device>
  return %0, %1 : !usm.array<f32, "cuda:gpu:0", device>, !usm.array<f32, "cuda:gpu:0", device>
}

// Two queues of the device reducing at once (bench/reduce_check.py): the
// launches on "q1" and "q2" are asynchronous and the entry waits for both at
// its end, so the sums of a and b (then c and d) run side by side. Each
// queue's reductions count their workgroups in the queue's own word.
func.func @two_queues(%a: !usm.array<?xf32, "cuda:gpu:0"("q1"), device>, %b: !usm.array<?xf32, "cuda:gpu:0"("q2"), device>, %c: !usm.array<?xf64, "cuda:gpu:0"("q1"), device>, %d: !usm.array<?xf64, "cuda:gpu:0"("q2"), device>) -> (!usm.array<f32, "cuda:gpu:0"("q1"), device>, !usm.array<f32, "cuda:gpu:0"("q2"), device>, !usm.array<f64, "cuda:gpu:0"("q1"), device>, !usm.array<f64, "cuda:gpu:0"("q2"), device>) {
  %0 = usm.sum %a : !usm.array<?xf32, "cuda:gpu:0"("q1"), device> -> !usm.array<f32, "cuda:gpu:0"("q1"), device>
  %1 = usm.sum %b : !usm.array<?xf32, "cuda:gpu:0"("q2"), device> -> !usm.array<f32, "cuda:gpu:0"("q2"), device>
  %2 = usm.sum %c : !usm.array<?xf64, "cuda:gpu:0"("q1"), device> -> !usm.array<f64, "cuda:gpu:0"("q1"), device>
  %3 = usm.sum %d : !usm.array<?xf64, "cuda:gpu:0"("q2"), device> -> !usm.array<f64, "cuda:gpu:0"("q2"), device>
  return %0, %1, %2, %3 : !usm.array<f32, "cuda:gpu:0"("q1"), device>, !usm.array<f32, "cuda:gpu:0"("q2"), device>, !usm.array<f64, "cuda:gpu:0"("q1"), device>, !usm.array<f64, "cuda:gpu:0"("q2"), device>
}
