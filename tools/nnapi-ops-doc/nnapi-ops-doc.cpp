//===- nnapi-ops-doc.cpp - docs/ops.md's NNAPI operation table -----------===//
//
// Prints the table of every NNAPI operation: its code, the feature level that
// introduced it, its float32/float16 levels (NNAPI/Operations.def), the nnapi
// dialect op that is it, the operand rules that need a higher level (the
// NNAPI spec's layouts, NNAPI/Layouts.h, and the op's behaviour levelRules)
// and the TOSA ops that convert to it (the generated ops the TosaToNNAPI
// patterns declare); then every layout, operand by operand. Nothing here is
// written twice: the tables are made from those sources.
//
//   nnapi-ops-doc                 print the table
//   nnapi-ops-doc --check FILE    exit 1 if FILE's generated section differs
//   nnapi-ops-doc --update FILE   rewrite FILE's generated section
//   nnapi-ops-doc --value-roles   each nnapi op's value operands' roles
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Operands.h"
#include "nnapi-mlir/NNAPI/Layouts.h"
#include "nnapi-mlir/NNAPI/Shapes.h"
#include "nnapi-mlir/NNAPI/Operations.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kBegin = "<!-- nnapi-ops-doc: begin -->\n";
constexpr llvm::StringLiteral kEnd = "<!-- nnapi-ops-doc: end -->\n";

struct DialectOp {
  StringRef name;
  int32_t code;
  StringRef levelRules;
};

template <typename... Ops>
std::vector<DialectOp> dialectOps() {
  return {DialectOp{Ops::getOperationName(), Ops::kOperationCode,
                    Ops::kFeatureLevelRules}...};
}

std::string level(unsigned l) { return l ? std::to_string(l) : "-"; }

/// The layout's rules that need a level above the operation's: optional
/// groups, ranks and types, as "what (level)".
std::string layoutRules(const nnapi_mlir::spec::Layout &layout,
                        unsigned opLevel) {
  std::vector<std::string> rules;
  auto add = [&](const std::string &rule) {
    if (std::find(rules.begin(), rules.end(), rule) == rules.end())
      rules.push_back(rule);
  };
  for (const nnapi_mlir::spec::Form &form : layout.forms) {
    for (const nnapi_mlir::spec::Role &role : form.inputs) {
      for (int r = 0; r <= 4; ++r)
        if (role.rankLevel[r] > opLevel)
          add(std::string(role.name) + " of rank " + std::to_string(r) +
              " (" + std::to_string(role.rankLevel[r]) + ")");
      auto typeRule = [&](const nnapi_mlir::spec::TypeRule &rule) {
        add(std::string(rule.why) + " (" + std::to_string(rule.level) + ")");
      };
      if (role.accepts == nnapi_mlir::spec::Accepts::Castable)
        typeRule(nnapi_mlir::spec::kCastBool8Rule);
      if (role.accepts == nnapi_mlir::spec::Accepts::SizeOrScale)
        typeRule(nnapi_mlir::spec::kResizeScaleRule);
    }
    for (const nnapi_mlir::spec::Group &g : form.groups)
      if (g.level > opLevel)
        add(std::string(g.why) + " (" + std::to_string(g.level) + ")");
  }
  std::string text;
  for (const std::string &r : rules)
    text += (text.empty() ? "" : ", ") + r;
  return text;
}

/// One form as "name: role, role, [optional (level)]".
std::string formText(const nnapi_mlir::spec::Form &form) {
  std::string text = *form.name ? std::string(form.name) + ": " : "";
  uint8_t group = 0;
  bool first = true;
  for (const nnapi_mlir::spec::Role &role : form.inputs) {
    if (role.group != group) {
      if (group)
        text += "]";
      group = role.group;
      text += " [";
      first = true;
    } else if (!first) {
      text += ", ";
    }
    first = false;
    text += "`" + std::string(role.name) + "` " +
            nnapi_mlir::spec::describeRole(role);
  }
  if (group)
    text += "]";
  return text;
}

std::vector<DialectOp> allDialectOps() {
  return dialectOps<
#define GET_OP_LIST
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIOps.cpp.inc"
      >();
}

/// Each nnapi op and the roles its value operands take, in operand order
/// ("..." after a variadic one, "?" after one that may be left out), for
/// the check against ODS (test/Dialect/NNAPI/operand-roles.test).
std::string valueRoles() {
  std::string text;
  for (const DialectOp &op : allDialectOps()) {
    text += op.name.str() + ":";
    for (const nnapi_mlir::spec::Role *r : nnapi::getValueRoles(op.code))
      text += std::string(" ") + r->name.str() + (r->variadic ? "..." : "") +
              (r->omittable ? "?" : "");
    text += "\n";
  }
  return text;
}

std::string generate() {
  MLIRContext ctx;
  ctx.loadDialect<nnapi::NNAPIDialect, tosa::TosaDialect>();
  std::vector<DialectOp> ops = allDialectOps();
  std::map<int32_t, std::vector<const DialectOp *>> byCode;
  for (const DialectOp &op : ops)
    byCode[op.code].push_back(&op);

  // nnapi op -> the TOSA ops (or composites) that become it.
  std::map<std::string, std::set<std::string>> sources;
  // A pattern's debug label, when it has one, says more than its root op.
  auto collect = [&](RewritePatternSet &set) {
    for (const std::unique_ptr<RewritePattern> &p : set.getNativePatterns()) {
      std::optional<OperationName> root = p->getRootKind();
      if (!root)
        continue;
      std::string from = root->getStringRef().str();
      if (!p->getDebugLabels().empty())
        from = p->getDebugLabels().front().str();
      for (OperationName gen : p->getGeneratedOps())
        sources[gen.getStringRef().str()].insert(from);
    }
  };
  RewritePatternSet composites(&ctx), perOp(&ctx);
  nnapi::populateTosaToNNAPICompositePatterns(composites);
  nnapi::populateTosaToNNAPIPatterns(perOp);
  nnapi::populateTosaToNNAPIControlFlowPatterns(perOp);
  collect(composites);
  collect(perOp);

  std::string out;
  llvm::raw_string_ostream os(out);
  os << "## NNAPI operations\n\n"
     << "Generated by `nnapi-ops-doc --update docs/ops.md` from "
        "`NNAPI/Operations.def`, the nnapi\n"
     << "dialect and the TOSA to nnapi patterns; a test fails when it is "
        "stale. "
     << byCode.size() << " of " << nnapi_mlir::kNumOperations
     << " NNAPI operations\nhave an nnapi dialect op. \"float32\", "
        "\"float16\", \"quant8\" (TENSOR_QUANT8_ASYMM) and\n\"quant8 "
        "signed\" (TENSOR_QUANT8_ASYMM_SIGNED) give the feature level from "
        "which the\n"
     << "operation accepts such data (- never); \"dynamic\" is yes where "
        "the spec library's\noutput-shape rules cover the operation "
        "(`NNAPI/Shapes.h`): the nnapi op may then have\ndynamic "
        "dimensions, which the runtime specializes per call; "
        "\"higher level for\" lists\nthe operand and attribute rules that "
        "need more than the operation's own level.\n\n";
  os << "| code | NNAPI operation | since | float32 | float16 | quant8 | "
        "quant8 signed | dynamic | nnapi op | higher level for | from TOSA "
        "|\n"
     << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const nnapi_mlir::OperationInfo &info : nnapi_mlir::kOperations) {
    os << "| " << info.code << " | " << info.name << " | " << info.level
       << " | " << level(info.float32Level) << " | "
       << level(info.float16Level) << " | " << level(info.quant8Level)
       << " | " << level(info.quant8SignedLevel) << " | "
       << (nnapi_mlir::spec::hasShapeRule(info.code) ? "yes" : "-") << " | ";
    auto it = byCode.find(info.code);
    if (it == byCode.end()) {
      os << "- | | |\n";
      continue;
    }
    std::string names, rules, from;
    if (const nnapi_mlir::spec::Layout *layout =
            nnapi_mlir::spec::lookupLayout(info.code))
      rules = layoutRules(*layout, info.level);
    for (const DialectOp *op : it->second) {
      names += (names.empty() ? "" : ", ") + ("`" + op->name + "`").str();
      if (!op->levelRules.empty())
        rules += (rules.empty() ? "" : ", ") + op->levelRules.str();
      for (const std::string &s : sources[op->name.str()])
        from += (from.empty() ? "" : ", ") + s;
    }
    os << names << " | " << rules << " | " << from << " |\n";
  }
  os << "\n## Operand layouts\n\n"
     << "Generated from `NNAPI/Layouts.h`'s table (`lib/NNAPI/Layouts.cpp`), "
        "the one place that\norders an operation's operands: the blob writer, "
        "the host device's checks and the\ntests' model builder read it. "
        "\"data\" is the operation's tensor type (float32 or\nfloat16 above); "
        "a rank's level in parentheses when it is above the operation's;\n"
        "[...] is an optional trailing group, with the level that introduced "
        "it. Forms are\ntried in order.\n\n"
     << "| NNAPI operation | inputs | groups |\n|---|---|---|\n";
  for (const nnapi_mlir::spec::Layout &layout : nnapi_mlir::spec::layouts()) {
    for (const nnapi_mlir::spec::Form &form : layout.forms) {
      std::string groups;
      for (const nnapi_mlir::spec::Group &g : form.groups)
        groups += (groups.empty() ? "" : ", ") + std::string(g.why) + " (" +
                  std::to_string(g.level) + ")";
      os << "| " << nnapi_mlir::operationName(layout.code) << " | "
         << formText(form) << " | " << groups << " |\n";
    }
  }
  return out;
}

/// The generated section of `text`, or npos positions if it has none.
std::pair<size_t, size_t> section(StringRef text) {
  size_t begin = text.find(kBegin);
  if (begin == StringRef::npos)
    return {StringRef::npos, StringRef::npos};
  begin += kBegin.size();
  size_t end = text.find(kEnd, begin);
  return {begin, end};
}
} // namespace

int main(int argc, char **argv) {
  std::string table = generate();
  if (argc == 1) {
    llvm::outs() << table;
    return 0;
  }
  if (argc == 2 && StringRef(argv[1]) == "--value-roles") {
    llvm::outs() << valueRoles();
    return 0;
  }
  if (argc != 3 || (StringRef(argv[1]) != "--check" &&
                    StringRef(argv[1]) != "--update")) {
    llvm::errs() << "usage: nnapi-ops-doc [--check FILE | --update FILE | "
                    "--value-roles]\n";
    return 2;
  }
  StringRef path = argv[2];
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    llvm::errs() << "nnapi-ops-doc: cannot read '" << path
                 << "': " << buffer.getError().message() << "\n";
    return 2;
  }
  StringRef text = (*buffer)->getBuffer();
  auto [begin, end] = section(text);
  if (begin == StringRef::npos || end == StringRef::npos) {
    llvm::errs() << "nnapi-ops-doc: '" << path << "' has no section between '"
                 << kBegin.drop_back() << "' and '" << kEnd.drop_back()
                 << "'\n";
    return 2;
  }
  if (StringRef(argv[1]) == "--check") {
    if (text.substr(begin, end - begin) == table)
      return 0;
    llvm::errs() << "nnapi-ops-doc: the NNAPI operation table in '" << path
                 << "' is stale; run nnapi-ops-doc --update " << path << "\n";
    return 1;
  }
  std::string updated =
      (text.substr(0, begin) + table + text.substr(end)).str();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "nnapi-ops-doc: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return 2;
  }
  os << updated;
  return 0;
}
