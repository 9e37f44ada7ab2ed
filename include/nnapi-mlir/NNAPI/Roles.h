//===- Roles.h - Checked names of NNAPI operands' roles ---------*- C++ -*-===//
//
// A role's name is a RoleName, made from the constants of `spec::role`
// (one per entry of Roles.def). Functions that read an operand by role take
// a RoleName, not a string, so `in("filtr")` and `role::filtr` are compile
// errors, not a lookup that finds nothing at run time.
//
// Plain C++: no LLVM, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_NNAPI_ROLES_H
#define NNAPI_MLIR_NNAPI_ROLES_H

#include <string_view>

namespace nnapi_mlir::spec {

class RoleName {
public:
  /// Explicit on purpose: a string literal does not become a role by
  /// accident. Use the constants below.
  constexpr explicit RoleName(const char *name) : name(name) {}
  constexpr const char *str() const { return name; }
  constexpr operator std::string_view() const { return name; }
  friend constexpr bool operator==(RoleName a, RoleName b) {
    return std::string_view(a) == std::string_view(b);
  }

private:
  const char *name;
};

namespace role {
#define NNAPI_ROLE(name) inline constexpr RoleName name{#name};
#include "nnapi-mlir/NNAPI/Roles.def"
} // namespace role

} // namespace nnapi_mlir::spec

#endif // NNAPI_MLIR_NNAPI_ROLES_H
