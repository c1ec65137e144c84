#!/usr/bin/env python3
"""Checks the alert rules of docker/k8s: renders the manifests with
`kubectl kustomize`, takes the rule groups out of the PrometheusRule, and
runs Debian's promtool over them: `promtool check rules` (syntax, PromQL,
templates) and `promtool test rules` with collide_rules_test.yaml (each
alert fires on the series it is for, on the pod it names, and not on the
others). Also checks that the rules name only metric families the
metrics table of docs/server.md lists, so a renamed metric cannot leave an
alert that never fires.

Usage: check_rules.py REPOSITORY_ROOT [KUBECTL]
Exits 0 when every check holds, else 1 naming each failed check.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    root = sys.argv[1]
    kubectl = sys.argv[2] if len(sys.argv) > 2 else "kubectl"
    promtool = shutil.which("promtool")
    if promtool is None:
        print("promtool not found: install it (bash scripts/install_deps.sh)",
              file=sys.stderr)
        return 1
    rendered = subprocess.run(
        [kubectl, "kustomize", os.path.join(root, "docker", "k8s")],
        capture_output=True, text=True, timeout=60)
    if rendered.returncode != 0:
        print(f"kubectl kustomize failed:\n{rendered.stderr}", file=sys.stderr)
        return 1
    rules = [doc for doc in yaml.safe_load_all(rendered.stdout)
             if doc and doc["kind"] == "PrometheusRule"]
    failures = []
    if len(rules) != 1:
        failures.append(f"{len(rules)} PrometheusRules rendered, not 1")
        print("\n".join(failures), file=sys.stderr)
        return 1
    groups = rules[0]["spec"]["groups"]

    families = documented_families(os.path.join(root, "docs", "server.md"))
    for group in groups:
        for rule in group["rules"]:
            for name in re.findall(r"\b(?:collide|grpc_server)_[a-z_]+",
                                   rule["expr"]):
                family = re.sub(r"_(bucket|sum|count)$", "", name)
                if family not in families:
                    failures.append(f"{rule['alert']} names {name}, which "
                                    "docs/server.md's metrics table lacks")

    with tempfile.TemporaryDirectory() as work:
        with open(os.path.join(work, "collide.rules.yaml"), "w") as out:
            yaml.safe_dump({"groups": groups}, out)
        shutil.copy(os.path.join(HERE, "collide_rules_test.yaml"), work)
        for command in (["check", "rules", "collide.rules.yaml"],
                        ["test", "rules", "collide_rules_test.yaml"]):
            result = subprocess.run([promtool] + command, cwd=work,
                                    capture_output=True, text=True,
                                    timeout=120)
            print(result.stdout + result.stderr)
            if result.returncode != 0:
                failures.append(f"promtool {' '.join(command)} failed")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    print("rules: promtool check and test pass")
    return 0


def documented_families(path):
    """The metric names in the first column of docs/server.md's metrics
    table (the one headed "| metric | type |")."""
    families = set()
    in_table = False
    with open(path, encoding="utf-8") as page:
        for line in page:
            if line.startswith("| metric | type |"):
                in_table = True
            elif in_table and not line.startswith("|"):
                break
            elif in_table:
                first = line.split("|")[1]
                families.update(re.findall(r"`([a-z_]+)`", first))
    return families


if __name__ == "__main__":
    sys.exit(main())
