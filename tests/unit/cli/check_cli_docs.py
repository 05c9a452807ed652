#!/usr/bin/env python3
"""Fails when a generated option reference of docs/cli.md differs from its generator's output.
Usage: check_cli_docs.py GENERATOR DOCUMENT [SECTION] (SECTION: the markers' word, default
OPTIONS: <!-- BEGIN GENERATED OPTIONS --> ... <!-- END GENERATED OPTIONS -->)."""
import subprocess
import sys

generator, document = sys.argv[1], sys.argv[2]
section = sys.argv[3] if len(sys.argv) > 3 else "OPTIONS"
expected = subprocess.run([generator], check=True, capture_output=True, text=True).stdout
with open(document) as handle:
    text = handle.read()
begin = f"<!-- BEGIN GENERATED {section} -->\n"
end = f"<!-- END GENERATED {section} -->"
if begin not in text or end not in text:
    sys.exit(f"{document}: generated section markers are missing")
actual = text.split(begin, 1)[1].split(end, 1)[0]
if actual != expected:
    sys.exit(f"{document} is out of date: regenerate its option reference with {generator}")
print(f"{document} matches {generator}")
