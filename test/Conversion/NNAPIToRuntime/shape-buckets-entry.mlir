// RUN: nnapi-opt %s --nnapi-compile-pipeline="host-only=1 shape-buckets=2x8;5x3" | FileCheck %s

// --shape-buckets through the pipeline: each typical shape's static copy of
// the entry (nnapi-specialize-shapes) is compiled with out-parameters and
// bare pointers, like a static model's entry (its exp vectorized over whole
// rows of 8), and the dynamic entry point calls it when every dynamic size
// of the call is the shape's (both sizes here) and the output buffers'
// sizes, which the runtime computed with the dynamic entry's output-shape
// function, are the copy's outputs' (nnapi.static_shapes); any other call
// runs the dynamic entry with its sizes.
// CHECK-LABEL: llvm.func internal @main(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-LABEL: llvm.func internal @main__shape0(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-NOT: llvm.func
// CHECK: llvm.mlir.constant(dense<1.44269502> : vector<1x8xf32>)
// CHECK-LABEL: llvm.func internal @main__shape1(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-LABEL: llvm.func @nnapi_model_run_dims(
// CHECK: %[[IN:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[OUT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[R:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[C:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[R2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[C2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[K2:.*]] = llvm.mlir.constant(2 : i64)
// CHECK: %[[EQR:.*]] = llvm.icmp "eq" %[[R]], %[[K2]]
// CHECK: %[[K8:.*]] = llvm.mlir.constant(8 : i64)
// CHECK: %[[EQC:.*]] = llvm.icmp "eq" %[[C]], %[[K8]]
// CHECK: %[[IN2:.*]] = llvm.and %[[EQR]], %[[EQC]]
// CHECK: %[[EQR2:.*]] = llvm.icmp "eq" %[[R2]], %{{.*}}
// CHECK: %[[AND3:.*]] = llvm.and %[[IN2]], %[[EQR2]]
// CHECK: %[[EQC2:.*]] = llvm.icmp "eq" %[[C2]], %{{.*}}
// CHECK: %[[BOTH:.*]] = llvm.and %[[AND3]], %[[EQC2]]
// CHECK: llvm.cond_br %[[BOTH]], ^[[HIT0:.*]], ^[[MISS0:[a-z0-9]+]]
// CHECK: ^[[HIT0]]:
// CHECK-NEXT: llvm.call @main__shape0(%[[IN]], %[[OUT]])
// CHECK-NEXT: llvm.br ^[[JOIN:[a-z0-9]+]]
// CHECK: ^[[MISS0]]:
// CHECK: llvm.mlir.constant(5 : i64)
// CHECK: llvm.mlir.constant(3 : i64)
// CHECK: llvm.cond_br %{{.*}}, ^[[HIT1:.*]], ^[[MISS1:[a-z0-9]+]]
// CHECK: ^[[HIT1]]:
// CHECK-NEXT: llvm.call @main__shape1(%[[IN]], %[[OUT]])
// CHECK-NEXT: llvm.br ^[[JOIN]]
// CHECK: ^[[MISS1]]:
// CHECK-NEXT: llvm.call @main(%[[IN]], %[[OUT]], %[[R]], %[[C]], %[[R2]], %[[C2]])
// CHECK-NEXT: llvm.br ^[[JOIN]]
// CHECK: ^[[JOIN]]:
// CHECK: llvm.return
func.func @main(%x: tensor<?x?xf32> {nnapi.dim_ranges = array<i64: 1, 16, 1, 16>}) -> tensor<?x?xf32> {
  %e = tosa.exp %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}
