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
        for spec in (str(ENGINE), f"={ENGINE}", f"none={ENGINE}", f"real={ENGINE}", "a=/no/such/engine.js",
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
