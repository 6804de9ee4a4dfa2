#!/usr/bin/env python3
"""Unit tests of page_probe.py's parts that run no browser: a variant's name and files, the
extension it is loaded as, and the page state its stub background answers with (compiled by the
variant's engine, in node, and read back by that engine as a tab reads it).

Run: python3 -m unittest discover -s scripts/benchmarks -p 'test_*.py'
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import page_probe  # noqa: E402

ENGINE = page_probe.REPO / "extension" / "content" / "engine.js"


class Variants(unittest.TestCase):
    def test_a_variant_names_its_engine_and_defaults_to_this_checkouts_content_script(self):
        self.assertEqual(page_probe.parse_variant(f"a={ENGINE}"), ("a", ENGINE, page_probe.CONTENT_JS))
        other = page_probe.CONTENT_JS
        self.assertEqual(page_probe.parse_variant(f"b={ENGINE}:{other}"), ("b", ENGINE, other))

    def test_a_variant_without_a_name_named_as_a_reference_or_naming_no_file_is_refused(self):
        for spec in (str(ENGINE), f"={ENGINE}", f"none={ENGINE}", f"none-2={ENGINE}", f"real={ENGINE}", "a=/no/such/engine.js",
                     f"a={ENGINE}:/no/such/content.js", f"a={ENGINE.parent}"):
            with self.assertRaises(argparse.ArgumentTypeError, msg=spec):
                page_probe.parse_variant(spec)


class Extension(unittest.TestCase):
    def make(self, browser):
        with tempfile.TemporaryDirectory() as tmp:
            d = page_probe.variant_extension(Path(tmp) / "v", "v", ENGINE, page_probe.CONTENT_JS,
                                             {"status": "success", "enabled": True}, browser)
            manifest = json.loads((d / "manifest.json").read_text())
            background = (d / "background.js").read_text()
            self.assertEqual((d / "engine.js").read_text(), ENGINE.read_text())
            self.assertEqual((d / "content.js").read_text(), page_probe.CONTENT_JS.read_text())
        return manifest, background

    def test_content_scripts_run_as_ours_engine_first_and_the_stub_answers_getPageState(self):
        for browser in ("chromium", "firefox"):
            manifest, background = self.make(browser)
            [scripts] = manifest["content_scripts"]
            self.assertEqual((scripts["js"], scripts["run_at"], scripts["all_frames"]),
                             (["engine.js", "content.js"], "document_start", True), browser)
            self.assertIn("'getPageState'", background)
            self.assertIn('{"status": "success", "enabled": true}', background)

    def test_chromium_gets_a_service_worker_firefox_a_manifest_v2_add_on_with_an_id(self):
        chromium, _ = self.make("chromium")
        self.assertEqual((chromium["manifest_version"], chromium["background"]), (3, {"service_worker": "background.js"}))
        firefox, _ = self.make("firefox")
        self.assertEqual((firefox["manifest_version"], firefox["background"]), (2, {"scripts": ["background.js"]}))
        self.assertTrue(firefox["browser_specific_settings"]["gecko"]["id"].endswith("@bench.invalid"))


class State(unittest.TestCase):
    def test_the_state_carries_the_engines_compiled_form_which_that_engine_reads_back(self):
        state = page_probe.compiled_state(ENGINE, {"blue": "blauw", "ice cream": "roomijs"})
        self.assertEqual((state["status"], state["enabled"], state["count"], state["rulesVersion"]),
                         ("success", True, 2, "1"))
        script = ("const vm = require('vm'); const fs = require('fs'); const c = vm.createContext({});"
                  "vm.runInContext(fs.readFileSync(process.argv[1], 'utf8'), c);"
                  "const T = c.ExtensionBridgeText;"
                  "const form = T.compiledFrom(JSON.parse(fs.readFileSync(0, 'utf8')));"
                  "process.stdout.write(T.replaceText('Blue ice cream', form));")
        out = subprocess.run(["node", "-e", script, str(ENGINE)], input=json.dumps(state["compiled"]),
                             capture_output=True, text=True, check=True).stdout
        self.assertEqual(out, "Blauw roomijs")


if __name__ == "__main__":
    unittest.main()


def snapshot(nodes: list) -> dict:
    """A heap snapshot in DevTools' shape: nodes as (type, name, self_size, id)."""
    types = ["hidden", "array", "string", "object", "code", "closure", "regexp", "number", "native"]
    strings, flat = [], []
    for kind, name, size, node_id in nodes:
        strings.append(name)
        flat += [types.index(kind), len(strings) - 1, node_id, size, 0]
    return {"snapshot": {"meta": {"node_fields": ["type", "name", "id", "self_size", "edge_count"],
                                  "node_types": [types, "string", "number", "number", "number"]}},
            "nodes": flat, "strings": strings}


class Heap(unittest.TestCase):
    def test_sizes_are_summed_per_type_and_name_strings_together_but_big_ones_on_their_own(self):
        sizes = page_probe.snapshot_sizes(snapshot([
            ("object", "Text", 16, 1), ("object", "Text", 16, 3), ("object", "system / Context / scope @41", 20, 5),
            ("object", "system / Context / scope @97", 24, 7), ("string", "blue", 16, 9), ("string", "blauw", 20, 11),
            ("string", "x" * 10, 70_000, 13), ("code", "system / InstructionStream", 3000, 15)]))
        self.assertEqual(sizes, {
            ("object", "Text"): [32, 2],
            ("object", "system / Context / scope"): [44, 2],
            ("string", ""): [36, 2],
            ("string", "one of 68 kB"): [70_000, 1],
            ("code", "system / InstructionStream"): [3000, 1]})

    def test_the_difference_is_what_grew_most_first_with_what_shrank_in_the_totals(self):
        ours = {("object", "Text"): [320, 20], ("string", ""): [100, 5], ("code", "x"): [50, 1]}
        none = {("object", "Text"): [20, 1], ("string", ""): [120, 6], ("native", "y"): [10, 1]}
        d = page_probe.difference(ours, none, top=2)
        self.assertEqual(d["total_bytes"], 470 - 150)
        self.assertEqual(d["by_type"], {"object": 300, "code": 50, "native": -10, "string": -20})
        self.assertEqual(d["top"], [{"type": "object", "name": "Text", "bytes": 300, "count": 19},
                                    {"type": "code", "name": "x", "bytes": 50, "count": 1}])

    def test_a_snapshot_is_read_from_every_chunk_through_a_real_devtools_pipe(self):
        # browsers._CDPPipe over two OS pipes: more chunks than the pipe keeps of other events.
        to_browser, ours_w = os.pipe()
        ours_r, from_browser = os.pipe()
        cdp = page_probe.pb.browsers._CDPPipe(ours_w, ours_r)
        text = json.dumps(snapshot([("object", "Text", 16, i) for i in range(300)] + [("string", "blue", 16, 301)]))
        pieces = list(text)
        self.assertGreater(len(pieces), 5000)
        sent = []

        def send(method, params):
            sent.append(method)
            out = []
            if method == "HeapProfiler.takeHeapSnapshot":
                for piece in pieces:
                    out.append({"method": "HeapProfiler.addHeapSnapshotChunk", "params": {"chunk": piece}})
                    out.append({"method": "Other.event", "params": {}})
            out.append({"id": cdp._next_id + 1, "result": {}})
            reply = threading.Thread(target=lambda: os.write(from_browser, b"".join(
                json.dumps(m).encode() + b"\0" for m in out)))
            reply.start()
            try:
                return cdp.send(method, params)
            finally:
                reply.join()

        try:
            got = page_probe.take_snapshot(cdp, send)
            self.assertEqual(json.dumps(got), text)
            self.assertEqual(sent, ["HeapProfiler.collectGarbage", "HeapProfiler.collectGarbage",
                                    "HeapProfiler.takeHeapSnapshot"])
            self.assertEqual(cdp.sinks, {})  # the sink is gone: later chunks are events again
            self.assertTrue(all(e["method"] == "Other.event" for e in cdp.events))
        finally:
            cdp.close()
            for fd in (to_browser, from_browser):
                os.close(fd)
