"""Holds each nnapi op's ODS operands (mlir-tblgen -gen-op-doc of
NNAPIOps.td) against the NNAPI roles Operands.cpp gives them by position
(nnapi-ops-doc --value-roles): the same names in the same order, so two
operands swapped in ODS or in a layout fail here. ODS names that are not the
role's are the dialect's conventions, listed below; roles past the last ODS
operand must be ones NNAPI lets a model leave out."""
import re
import sys

# ODS name -> the roles it may stand for.
ALIASES = {
    "lhs": {"input0", "input"},
    "rhs": {"input1", "alpha"},
    "on_true": {"true_values"},
    "on_false": {"false_values"},
    "inputs": {"input..."},
}


def ods_operands(doc):
    ops = {}
    for section in re.split(r"\n### ", doc)[1:]:
        name = re.match(r"`(nnapi\.\w+)`", section)
        if not name:
            continue
        table = re.search(r"#### Operands:\n\n\|.*\n\|.*\n((?:\|.*\n)*)", section)
        ops[name.group(1)] = (
            re.findall(r"^\| `(\w+)` \|", table.group(1), re.M) if table else [])
    return ops


def main():
    ods = ods_operands(open(sys.argv[1]).read())
    problems, checked = [], 0
    for line in open(sys.argv[2]):
        op, _, roles = line.strip().partition(":")
        roles = roles.split()
        if op not in ods:
            problems.append(f"{op}: not in the ODS documentation")
            continue
        names = ods[op]
        checked += 1
        for i, role in enumerate(roles):
            bare = role.rstrip("?")
            if i >= len(names):
                if not role.endswith("?"):
                    problems.append(f"{op}: role {bare} has no ODS operand")
                continue
            if names[i] != bare and bare not in ALIASES.get(names[i], ()):
                problems.append(f"{op}: ODS operand #{i} '{names[i]}' takes "
                                f"role {bare}")
        for name in names[len(roles):]:
            problems.append(f"{op}: ODS operand '{name}' has no role")
    for p in problems:
        print("check_operand_roles: " + p, file=sys.stderr)
    print(f"check_operand_roles: {checked} ops, {len(problems)} problems")
    return 1 if problems or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
