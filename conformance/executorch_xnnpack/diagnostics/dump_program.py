#!/usr/bin/env python3
"""dump_program.py PROGRAM.pte OUT_DIR: a diagnostic, not part of the pass/fail run. Decodes a
program and each XNNPACK delegate in it to JSON with flatc and ExecuTorch's own schemas, for reading
side by side with ExecuTorch's log when a program fails to load (the constant_segment finding was
read off such a dump: ExecuTorch-written programs have "constant_segment": {"offsets": [0]}).

Writes OUT_DIR/NAME.json (schema/program.fbs) and, per delegate i, OUT_DIR/NAME.d<i>.bin (the
XNNPACK flatbuffer, without its XH00 header) and OUT_DIR/NAME.d<i>.json
(backends/xnnpack/serialization/schema.fbs). Uses ET_ROOT's checkout and flatc (roundtrip.sh
builds both): ET_ROOT [/tmp/et_xnnpack].
"""
import json
import os
import struct
import subprocess
import sys

ET_ROOT = os.environ.get("ET_ROOT", "/tmp/et_xnnpack")
FLATC = os.path.join(ET_ROOT, "flatc-build", "flatc")
ET = os.path.join(ET_ROOT, "src", "executorch")


def to_json(schema, binary, out_dir):
    subprocess.run([FLATC, "--json", "--strict-json", "--defaults-json", "--raw-binary", "-o", out_dir,
                    schema, "--", binary], check=True)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pte, out_dir = sys.argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    name = os.path.splitext(os.path.basename(pte))[0]
    data = open(pte, "rb").read()
    # The extended header after the flatbuffer's root offset and identifier: "eh00", its length,
    # the program flatbuffer's size and where the segments begin.
    if data[8:12] != b"eh00":
        sys.exit(f"{pte}: no eh00 extended header")
    _, _, segment_base = struct.unpack_from("<IQQ", data, 12)
    to_json(os.path.join(ET, "schema", "program.fbs"), pte, out_dir)
    program = json.load(open(os.path.join(out_dir, name + ".json")))
    print(f"{name}: constant_segment {program.get('constant_segment')}, "
          f"{len(program.get('constant_buffer', []))} constant_buffer entries, {len(program.get('segments', []))} segments")
    for plan in program["execution_plan"]:
        for i, delegate in enumerate(plan.get("delegates", [])):
            where = delegate["processed"]
            if where["location"] == "SEGMENT":
                segment = program["segments"][where["index"]]
                blob = data[segment_base + segment["offset"]:segment_base + segment["offset"] + segment["size"]]
            else:
                blob = bytes(program["backend_delegate_data"][where["index"]]["data"])
            if blob[4:8] == b"XH00":
                # XH00 header: length (u16), flatbuffer offset and size (u32 each), constant data
                # offset (u32) and size (u64).
                _, fb_offset, fb_size, const_offset, const_size = struct.unpack_from("<HIIIQ", blob, 8)
                graph = blob[fb_offset:fb_offset + fb_size]
                print(f"  delegate {i} ({delegate['id']}): {len(blob)} bytes; graph {fb_size} bytes at {fb_offset}, "
                      f"constant region {const_size} bytes at {const_offset}")
            else:
                graph = blob
                print(f"  delegate {i} ({delegate['id']}): {len(blob)} bytes, no XH00 header")
            path = os.path.join(out_dir, f"{name}.d{i}.bin")
            open(path, "wb").write(graph)
            to_json(os.path.join(ET, "backends", "xnnpack", "serialization", "schema.fbs"), path, out_dir)


if __name__ == "__main__":
    main()
