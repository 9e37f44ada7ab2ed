#!/usr/bin/env python3
"""Fails when a source file under the given directories is longer than the
project allows (1,000 lines: issue 52's "rooms that stay small"), naming
each such file and its length, so a room that grows is split when it does,
not found later by a review."""
import argparse
import pathlib
import sys

SUFFIXES = {".cpp", ".h", ".c", ".td", ".def", ".py", ".java"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dirs", nargs="+", type=pathlib.Path)
    parser.add_argument("--max-lines", type=int, default=1000)
    args = parser.parse_args()
    too_long = []
    checked = 0
    for root in args.dirs:
        if not root.is_dir():
            print(f"check_file_sizes: error: no directory {root}",
                  file=sys.stderr)
            return 2
        for path in sorted(root.rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            checked += 1
            with open(path, "rb") as f:
                lines = sum(1 for _ in f)
            if lines > args.max_lines:
                too_long.append((path, lines))
    for path, lines in too_long:
        print(f"check_file_sizes: {path}: {lines} lines, more than "
              f"{args.max_lines}: split it by idea", file=sys.stderr)
    print(f"check_file_sizes: {checked} files, {len(too_long)} over "
          f"{args.max_lines} lines")
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main())
