#!/usr/bin/env python3
"""h5py_check.py - check an opforge HDF5 results file with h5py alone.

Usage: h5py_check.py FILE.h5 EXPECTED.json

EXPECTED.json lists what the file must hold:
  {"attrs":      {"/obj": {"name": value, ...}},        # int, float or str
   "json_attrs": {"/obj": {"name": <json value>}},       # str attrs holding JSON
   "tables":     {"/path": {"column": [values...]}},     # compound datasets
   "datasets":   {"/path": {"shape": [..], "values": [flat row-major]}},
   "groups":     {"/path": ["child", ...]}}
Exits 0 and prints "ok: N checks" when everything matches, else 1 with the
first mismatch. Uses only h5py/numpy: proves the format needs no opforge.
"""
import json
import sys

import h5py
import numpy as np


def as_text(v):
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def main():
    path, expected_path = sys.argv[1], sys.argv[2]
    with open(expected_path, encoding="utf-8") as f:
        exp = json.load(f)
    checks = 0
    with h5py.File(path, "r") as h5:
        for obj, attrs in exp.get("attrs", {}).items():
            for name, want in attrs.items():
                got = h5[obj].attrs[name]
                if isinstance(want, str):
                    ok = as_text(got) == want
                else:
                    ok = float(got) == float(want) and isinstance(got, (np.integer, int)) == isinstance(want, int)
                if not ok:
                    sys.exit(f"{path}: {obj}: attribute {name}: got {got!r}, want {want!r}")
                checks += 1
        for obj, attrs in exp.get("json_attrs", {}).items():
            for name, want in attrs.items():
                got = json.loads(as_text(h5[obj].attrs[name]))
                if got != want:
                    sys.exit(f"{path}: {obj}: JSON attribute {name}: got {got!r}, want {want!r}")
                checks += 1
        for table, columns in exp.get("tables", {}).items():
            data = h5[table][:]
            for name, want in columns.items():
                col = data[name]
                got = [as_text(v) for v in col] if col.dtype.kind in "OSU" else col.tolist()
                if got != want:
                    sys.exit(f"{path}: {table}: column {name}: got {got!r}, want {want!r}")
                checks += 1
        for dset, want in exp.get("datasets", {}).items():
            arr = h5[dset][()]
            if list(arr.shape) != want["shape"] or arr.flatten().tolist() != want["values"]:
                sys.exit(f"{path}: {dset}: got shape {arr.shape} values {arr.flatten().tolist()!r}, want {want!r}")
            checks += 1
        for group, want in exp.get("groups", {}).items():
            got = sorted(h5[group].keys())
            if got != sorted(want):
                sys.exit(f"{path}: {group}: children {got!r}, want {want!r}")
            checks += 1
    print(f"ok: {checks} checks")


if __name__ == "__main__":
    main()
