#!/usr/bin/env python3
"""Loads a partition report's HTML page in headless Chromium and checks that
what the browser drew matches the report's JSON: one op node per op, one
outline per partition, every NNAPI op filled with its partition's colour and
every op carrying a hover text, and one row per nnapi-run --validate result
for the report's partitions (nnapi-compile --validation). Prints a summary
line; exits 1 on mismatch.

Usage: check_report_html.py CHROMIUM REPORT_BASE
"""
import html.parser
import json
import subprocess
import sys


class Collector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ops = []          # (classes, fill)
        self.partitions = 0
        self.titles = 0
        self.rendered = None
        self.validation = []   # data-result of each validation row
        self._in_op = 0
        self._stack = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "")
        if tag == "body":
            self.rendered = a.get("data-rendered")
        if tag == "tr" and "data-result" in a:
            self.validation.append(a["data-result"])
        if tag == "g" and cls.split()[:1] == ["op"]:
            self.ops.append([cls, None])
            self._stack.append("op")
        elif tag == "g":
            self._stack.append("g")
        if tag == "rect" and self._stack and self._stack[-1] == "op" and self.ops[-1][1] is None:
            self.ops[-1][1] = a.get("fill", "")
        if tag == "rect" and cls == "partition":
            self.partitions += 1
        if tag == "title" and self._stack and self._stack[-1] == "op":
            self.titles += 1

    def handle_endtag(self, tag):
        if tag == "g" and self._stack:
            self._stack.pop()


def main():
    chromium, base = sys.argv[1], sys.argv[2]
    report = json.load(open(base + ".json"))
    dom = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu",
         "--virtual-time-budget=5000", "--dump-dom", "file://" + base + ".html"],
        capture_output=True, text=True, timeout=120).stdout
    c = Collector()
    c.feed(dom)
    ops = sum(len(f["ops"]) for f in report["functions"])
    parts = sum(len(f["partitions"]) for f in report["functions"])
    nnapi = sum(1 for f in report["functions"] for o in f["ops"] if o["placement"] == "nnapi")
    drawn_nnapi = [o for o in c.ops if "nnapi" in o[0].split()]
    names = {p["name"] for f in report["functions"] for p in f["partitions"]}
    results = [r["result"] for r in report.get("validation", [])
               if r["partition"] in names]
    errors = []
    if c.validation != results:
        errors.append(f"drew validation rows {c.validation}, the report has "
                      f"{results}")
    if len(c.ops) != ops:
        errors.append(f"drew {len(c.ops)} op nodes, the report has {ops}")
    if c.rendered != str(ops):
        errors.append(f"page says it rendered {c.rendered} ops, expected {ops}")
    if c.partitions != parts:
        errors.append(f"drew {c.partitions} partition outlines, expected {parts}")
    if len(drawn_nnapi) != nnapi or any(not fill for _, fill in drawn_nnapi):
        errors.append("NNAPI ops are not all drawn with a partition colour")
    if c.titles != ops:
        errors.append(f"{c.titles} ops have hover text, expected {ops}")
    print(f"rendered ops={len(c.ops)} partitions={c.partitions} nnapi_ops={len(drawn_nnapi)} hover_texts={c.titles}"
          + (f" validation={','.join(c.validation)}" if c.validation else ""))
    for e in errors:
        print("error: " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
