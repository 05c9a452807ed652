#!/usr/bin/env python3
"""Fails when docs/cli.md's generated option reference differs from the schema's output."""
import subprocess
import sys

generator, document = sys.argv[1], sys.argv[2]
expected = subprocess.run([generator], check=True, capture_output=True, text=True).stdout
with open(document) as handle:
    text = handle.read()
begin, end = "<!-- BEGIN GENERATED OPTIONS -->\n", "<!-- END GENERATED OPTIONS -->"
if begin not in text or end not in text:
    sys.exit(f"{document}: generated section markers are missing")
actual = text.split(begin, 1)[1].split(end, 1)[0]
if actual != expected:
    sys.exit(f"{document} is out of date: regenerate its option reference with {generator}")
print("docs/cli.md matches the schema")
