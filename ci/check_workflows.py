#!/usr/bin/env python3
"""Checks the GitHub Actions workflows (.github/workflows); ctest: ci.workflows.

  ci/check_workflows.py [--root DIR]    every workflow of the repository at DIR
  ci/check_workflows.py --self-test D   every file in D must fail, with each
                                        error its `# expect: TEXT` lines name

Per workflow: yamllint --strict with the repository's .yamllint, then
- `on` and a non-empty `jobs`; each job has `runs-on` (or calls a workflow);
- every `needs` names a job, the graph has no cycle, and a job's expressions
  read `needs.X` only for the jobs X it needs;
- every step has one of `uses` and `run`; remote actions are pinned (`@ref`;
  actions/* at a major version or a commit), local ones exist;
- repository paths named in `run` and `with` exist (the directories that
  .gitignore lists, build outputs, excepted);
- every ctest run writes JUnit (--output-junit); every upload-artifact step
  has a name and a path; `run` steps use bash (-eo pipefail);
- a job that runs Intel SDE downloads it with `curl --fail`, verifies it with
  `sha256sum -c` before anything uses it, sets SDE_PATH only after, and never
  continues on error.
Across the workflows: every stage of ci/stages is run in each of its tiers
(`./lockstep test [--full] --stage GLOB`, the globs literal or a matrix's
`stages`), every CMake test preset is run (by a stage or by ctest), and
ClusterFuzzLite
fuzzes code changes and batches and prunes, for project.yaml's language and
with its sanitizers (OSS-Fuzz's default, address and undefined, if unnamed).
Exit status 0 when all holds, 1 otherwise (a missing yamllint included).
"""
import argparse
import fnmatch
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

try:
    import yaml
except ImportError:
    sys.exit("check_workflows: Python's yaml module is missing: install the Debian package "
             "python3-yaml (ci/install-deps does)")

SDE_USE = re.compile(r"run-sde|sde64|SDE_PATH|-L\s+sde\b")
SDE_VERIFY = re.compile(r"sha256sum\s+(?:[^\n|;&]*\s)?(?:-c|--check)\b")
DEFAULT_SANITIZERS = ["address", "undefined"]


def strings(node):
    """Every string in a YAML tree, keys excepted."""
    if isinstance(node, dict):
        for v in node.values():
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)
    elif isinstance(node, str):
        yield node


def as_list(v):
    return [] if v is None else v if isinstance(v, list) else [v]


class Checker:
    def __init__(self, root):
        self.root = root
        ignore = root / ".gitignore"
        lines = ignore.read_text().split() if ignore.exists() else []
        # Top-level directories of the source tree; the ignored ones are made by builds.
        generated = {ln.strip("/") for ln in lines if ln.startswith("/") or ln.endswith("/")}
        self.top = {p.name for p in root.iterdir() if p.name not in generated | {".git"}}

    def yamllint(self, path):
        exe = shutil.which("yamllint")
        if exe is None:
            return ["yamllint not found: install the Debian package yamllint (ci/install-deps does)"]
        r = subprocess.run([exe, "--strict", "-f", "parsable", "-c", str(self.root / ".yamllint"), str(path)],
                           capture_output=True, text=True)
        out = [f"yamllint: line {m[1]}: {m[2]}"
               for m in re.finditer(r"(?m)^.*?:(\d+):\d+: \[\w+\] (.*)$", r.stdout)]
        if r.returncode != 0 and not out:
            out = [f"yamllint failed: {(r.stderr or r.stdout).strip()}"]
        return out

    def repo_paths(self, text):
        """Words of `text` that name a path in the source tree."""
        for word in re.findall(r"[^\s'\"=;|&()<>,]+", text):
            if any(c in word for c in "$*{}") or "://" in word:
                continue
            rel = word[2:] if word.startswith("./") else word
            first = rel.split("/", 1)[0]
            if first in self.top and ("/" in rel or word.startswith("./")):
                yield rel.rstrip("/.")

    def check_file(self, path):
        """Returns the errors of one workflow file, and the parsed file."""
        errors = self.yamllint(path)
        try:
            wf = yaml.safe_load(path.read_text())
        except yaml.YAMLError as e:
            return errors + [f"not YAML: {e}"], None
        if not isinstance(wf, dict):
            return errors + ["not a mapping"], None
        if wf.get("on", wf.get(True)) is None:  # YAML 1.1 reads the key `on` as true
            errors.append("no `on`: the workflow never runs")
        jobs = wf.get("jobs")
        if not isinstance(jobs, dict) or not jobs:
            return errors + ["no jobs"], wf
        shell = ((wf.get("defaults") or {}).get("run") or {}).get("shell")
        for name, job in jobs.items():
            errors += [f"job {name}: {e}" for e in self.check_job(name, job, jobs, shell)]
        errors += self.cycles(jobs)
        return errors, wf

    def check_job(self, name, job, jobs, shell):
        if not isinstance(job, dict):
            return ["not a mapping"]
        errors = []
        if "runs-on" not in job and "uses" not in job:
            errors.append("no runs-on")
        needs = as_list(job.get("needs"))
        errors += [f"needs unknown job '{n}'" for n in needs if n not in jobs]
        steps = job.get("steps") or []
        # Expressions: ${{ ... }} anywhere, and the bare ones of `if:`.
        exprs = re.findall(r"\$\{\{(.*?)\}\}", json.dumps(job))
        exprs += [str(s.get("if", "")) for s in steps if isinstance(s, dict)] + [str(job.get("if", ""))]
        refs = {m for e in exprs for m in re.findall(r"\bneeds\.([A-Za-z_][\w-]*)", e)}
        errors += [f"reads needs.{r} but does not need '{r}'" for r in sorted(refs) if r not in needs]
        if "uses" in job:
            errors += self.check_uses(job["uses"])
        if "runs-on" in job and not steps:
            errors.append("no steps")
        shell = ((job.get("defaults") or {}).get("run") or {}).get("shell") or shell
        for i, step in enumerate(steps):
            label = (step.get("name") or step.get("uses")) if isinstance(step, dict) else None
            errors += [f"step {i + 1} ({label or 'unnamed'}): {e}" for e in self.check_step(step, shell)]
        errors += self.check_sde(job, steps)
        return errors

    def check_uses(self, uses):
        if uses.startswith("./"):
            return [] if (self.root / uses).exists() else [f"local action or workflow {uses} does not exist"]
        if uses.startswith("docker://"):
            return []
        ref = uses.partition("@")[2]
        if not ref:
            return [f"{uses} is not pinned (@ref)"]
        if uses.startswith("actions/") and not re.fullmatch(r"v\d+|[0-9a-f]{40}", ref):
            return [f"{uses}: pin actions/* to a major version (@v4) or a commit"]
        return []

    def check_step(self, step, shell):
        if not isinstance(step, dict):
            return ["not a mapping"]
        if ("uses" in step) == ("run" in step):
            return ["needs exactly one of uses and run"]
        errors = []
        if "uses" in step:
            errors += self.check_uses(step["uses"])
            w = step.get("with") or {}
            if step["uses"].startswith("actions/upload-artifact@"):
                errors += [f"upload-artifact without {k}" for k in ("name", "path") if not str(w.get(k) or "").strip()]
        else:
            run = step["run"]
            if (step.get("shell") or shell) != "bash":
                errors.append("`run` without bash (set defaults.run.shell: bash for -eo pipefail)")
            for line in run.replace("\\\n", " ").splitlines():  # continued lines as one
                if re.search(r"(^|[\s;&|(])ctest\s", line) and "--output-junit" not in line:
                    errors.append("ctest without --output-junit")
        for text in strings({k: v for k, v in step.items() if k in ("run", "with")}):
            errors += [f"{p} does not exist" for p in self.repo_paths(text) if not (self.root / p).exists()]
        return errors

    def check_sde(self, job, steps):
        runs = [s.get("run", "") if isinstance(s, dict) else "" for s in steps]
        text = "\n".join(runs)
        use = SDE_USE.search(text)
        if not use:
            return []
        errors = []
        if "SDE_PATH" in (job.get("env") or {}):
            errors.append("SDE: SDE_PATH is set before the download is verified")
        verify = SDE_VERIFY.search(text)
        if not verify:
            errors.append("SDE: never verified with sha256sum -c")
        elif verify.start() > use.start():
            errors.append("SDE: used before sha256sum -c verifies it")
        elif re.search(r"sha256sum[^\n]*\|\|\s*true", text):
            errors.append("SDE: a failed sha256sum -c is ignored (|| true)")
        for m in re.finditer(r"(?m)(?:^\s*|[;&|(]\s*)curl\s[^\n]*", text):  # curl as a command
            args = re.split(r"&&|\|\||[;|]", m.group(0))[0] + " "
            if not re.search(r"\s(--fail\b|--fail-with-body\b|-[a-zA-Z]*f[a-zA-Z]*\s)", args):
                errors.append("SDE: curl without --fail (an HTTP error would pass as a download)")
        if job.get("continue-on-error") or any(isinstance(s, dict) and s.get("continue-on-error") for s in steps):
            errors.append("SDE: continue-on-error would turn a failed download or run green")
        return errors

    def cycles(self, jobs):
        state, errors = {}, []

        def visit(n, path):
            if state.get(n) == "done" or n not in jobs:
                return
            if state.get(n) == "open":
                errors.append("needs cycle: " + " -> ".join(path[path.index(n):] + [n]))
                return
            state[n] = "open"
            for m in as_list(jobs[n].get("needs") if isinstance(jobs[n], dict) else None):
                visit(m, path + [n])
            state[n] = "done"

        for n in jobs:
            visit(n, [])
        return errors

    def check_repo(self, workflows):
        """The checks across every workflow of the repository."""
        errors, ctest_presets, cflite = [], set(), {}
        for steps, text, matrix in jobs_of(workflows):
            if re.search(r"\bctest\b", text):
                ctest_presets |= set(strings(matrix))
                ctest_presets |= set(re.findall(r"ctest\b[^\n]*--preset[= ]\"?([\w.-]+)", text))
            for s in steps:
                uses = s.get("uses", "")
                if not uses.startswith("google/clusterfuzzlite/actions/"):
                    continue
                w = s.get("with") or {}
                san = str(w.get("sanitizer", "address"))
                sans = as_list(matrix.get("sanitizer")) if "matrix.sanitizer" in san else [san]
                if "build_fuzzers" in uses:
                    cflite.setdefault("language", set()).add(w.get("language", "c++"))
                if "run_fuzzers" in uses:
                    cflite.setdefault(w.get("mode", "code-change"), set()).update(sans)
        errors += self.check_stages(workflows, ctest_presets)
        presets = json.loads((self.root / "CMakePresets.json").read_text()).get("testPresets", [])
        for p in presets:
            if not p.get("hidden") and p["name"] not in ctest_presets:
                errors.append(f"test preset {p['name']} is not run by any workflow")
        project = self.root / ".clusterfuzzlite" / "project.yaml"
        decl = (yaml.safe_load(project.read_text()) if project.exists() else None) or {}
        for f in ("project.yaml", "Dockerfile", "build.sh"):
            if not (self.root / ".clusterfuzzlite" / f).exists():
                errors.append(f"ClusterFuzzLite: .clusterfuzzlite/{f} does not exist")
        # What the Dockerfile copies or runs from the checkout must be there.
        dockerfile = self.root / ".clusterfuzzlite" / "Dockerfile"
        text = dockerfile.read_text() if dockerfile.exists() else ""
        for m in re.finditer(r"^COPY\s+(\S+)\s", text, re.M):
            if m.group(1) != "." and not (self.root / m.group(1)).exists():
                errors.append(f"ClusterFuzzLite: the Dockerfile copies {m.group(1)}, which does not exist")
        for m in re.finditer(r"\$SRC/lockstep/(\S+)", text):
            if not (self.root / m.group(1)).exists():
                errors.append(f"ClusterFuzzLite: the Dockerfile runs {m.group(1)}, which does not exist")
        want = set(decl.get("sanitizers") or DEFAULT_SANITIZERS)
        for mode in ("code-change", "batch"):
            if cflite.get(mode, set()) != want:
                errors.append(f"ClusterFuzzLite {mode} fuzzing runs sanitizers {sorted(cflite.get(mode, []))}, "
                              f"project.yaml declares {sorted(want)}")
        if "prune" not in cflite:
            errors.append("ClusterFuzzLite: no corpus pruning (mode: prune) after batch fuzzing")
        lang = decl.get("language")
        if cflite.get("language", {lang}) != {lang}:
            errors.append(f"ClusterFuzzLite builds {sorted(cflite['language'])}, project.yaml says {lang}")
        return errors


    def stage_rows(self):
        """ci/stages as (name, tiers, action words)."""
        path = self.root / "ci" / "stages"
        rows = []
        for line in (path.read_text().splitlines() if path.exists() else []):
            words = line.split()
            if len(words) >= 3 and not words[0].startswith("#"):
                rows.append((words[0], words[1].split(","), words[2:]))
        return rows

    def check_stages(self, workflows, ctest_presets):
        """Every (stage, tier) of ci/stages is run by some workflow job."""
        runs = set()  # (tier, glob)
        for _, text, matrix in jobs_of(workflows):
            from_matrix = [w for e in as_list(matrix.get("include")) if isinstance(e, dict)
                           for w in str(e.get("stages", "")).split()]
            # The --stage arguments may be gathered on lines of their own.
            globs = re.findall(r"--stage[= ]\"?([^\s\")]+)", text)
            if any("$" in g for g in globs):
                globs = [g for g in globs if "$" not in g] + from_matrix
            for m in re.finditer(r"\./lockstep test\b([^\n]*)", text):
                tier = "full" if "--full" in m.group(1) else "every"
                runs |= {(tier, g) for g in (globs or ["*"])}
        errors = []
        for name, tiers, action in self.stage_rows():
            for tier in tiers:
                if any(t == tier and fnmatch.fnmatchcase(name, g) for t, g in runs):
                    if action[0] == "test" and len(action) > 1:
                        ctest_presets.add(action[1])
                else:
                    flag = " --full" if tier == "full" else ""
                    errors.append(f"stage {name} ({tier} tier) is not run by any workflow "
                                  f"(./lockstep test{flag} --stage {name})")
        return errors


def jobs_of(workflows):
    """(steps, the text of their `run`s, matrix) for every job."""
    for wf in workflows.values():
        for job in (wf.get("jobs") or {}).values() if isinstance(wf, dict) else []:
            if isinstance(job, dict):
                steps = [s for s in job.get("steps") or [] if isinstance(s, dict)]
                text = "\n".join(s.get("run", "") for s in steps)
                yield steps, text, (job.get("strategy") or {}).get("matrix") or {}


def report(label, errors, detail=""):
    print(f"{'FAIL' if errors else 'ok  '} {label}{detail}" + "".join(f"\n    {e}" for e in errors))
    return bool(errors)


def self_test(checker, directory):
    """Every fixture must fail with each error its `# expect:` lines name."""
    files = sorted(directory.glob("*.yml"))
    failed = 0 if files else report(str(directory), ["no *.yml fixtures"])
    for f in files:
        errors, wf = checker.check_file(f)
        errors += checker.check_repo({f.name: wf})
        expected = re.findall(r"^\s*# expect: (.+?)\s*$", f.read_text(), re.M)
        missed = [e for e in expected if not any(e in err for err in errors)]
        if expected and errors and not missed:
            report(f.name, [], f": all {len(expected)} planted defects found ({len(errors)} errors)")
        else:
            missed = missed or expected or ["(no # expect lines)"]
            failed += report(f.name, [f"expected, not reported: {e}" for e in missed]
                             + [f"reported: {e}" for e in errors])
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--self-test", type=Path, metavar="DIR")
    args = ap.parse_args()
    checker = Checker(args.root.resolve())
    if args.self_test:
        return self_test(checker, args.self_test)

    wf_dir = checker.root / ".github" / "workflows"
    files = sorted(wf_dir.glob("*.yml")) + sorted(wf_dir.glob("*.yaml"))
    failed = 0 if files else report(str(wf_dir), ["no workflows"])
    workflows = {}
    for f in files:
        errors, workflows[f.name] = checker.check_file(f)
        failed += report(str(f.relative_to(checker.root)), errors)
    for f in (checker.root / ".yamllint", checker.root / ".clusterfuzzlite" / "project.yaml"):
        failed += report(str(f.relative_to(checker.root)), checker.yamllint(f) if f.exists() else ["does not exist"])
    failed += report("across the workflows", checker.check_repo(workflows))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
