// A loop that only moves data (here the six row copies of a padded buffer's
// interior, each a memcpy) stays a loop through -O3: unrolled, each memcpy
// becomes a dozen vector moves in one block, on which LLVM's instruction
// schedulers are quadratic (the text detector's concatenations took 0.4 s
// of code generation in one function that way).
// RUN: nnapi-compile %s --host-only --emit=llvm -o - | FileCheck %s
// CHECK: call void @llvm.memcpy.p0.p0.i64({{.*}}, i64 384, i1 false)
// CHECK-NOT: call void @llvm.memcpy
// CHECK: br i1 {{.*}} !llvm.loop ![[LOOP:[0-9]+]]
// CHECK-NOT: call void @llvm.memcpy
// CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
// CHECK: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
func.func @main(%a: tensor<1x6x6x16xf32>) -> tensor<1x8x8x16xf32> {
  %p = "tosa.const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %0 = tosa.pad %a, %p : (tensor<1x6x6x16xf32>, tensor<4x2xi32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
