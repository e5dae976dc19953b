"""The checking engine: text -> documents -> format contexts -> rule findings.

It owns what is common to every format: reading files safely, splitting YAML streams,
unwrapping ConfigMaps (``data.<key>``) and ``v1/List`` objects with positions mapped back
into the outer file, choosing the format of each document, running the rules, and
stamping code and severity on what they report. It never prints. ``lint_paths`` isolates a
crash per file: a bug met while checking one file becomes that file's BPL009 finding and the
other files are still checked.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linter import formats, rules
from linter.filecodes import EMPTY_FILE as CODE_EMPTY
from linter.filecodes import INTERNAL_ERROR as CODE_INTERNAL
from linter.filecodes import INVALID_YAML
from linter.filecodes import UNREADABLE_FILE as CODE_UNREADABLE
from linter.filecodes import UNRECOGNIZED_DOCUMENT as CODE_UNRECOGNIZED
from linter.findings import Finding, Severity, Violation
from linter.formats.base import FormatContext
from linter.messages import readable
from linter.model import SchedulerModel
from linter.reading import mentions_a_known_format, read_stream
from linter.settings import LintSettings
from linter.source import Document
from linter.textfile import NOT_REGULAR, TextFileError, decode, read_text
from linter.unwrap import data_documents, embedded_documents, is_configmap, list_items

MAX_FILE_BYTES = 10 * 1024 * 1024
LINT_SUFFIXES = (".yaml", ".yml", ".json", ".conf", ".cfg")
# Starting a worker process costs tens of milliseconds and checking a file about two: with fewer
# files than this per worker, the workers would not pay for themselves.
FILES_PER_WORKER = 40



@dataclass
class LintRun:
    """Everything one run produced: findings (sorted) and how many files were read."""

    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    paths: list[str] = field(default_factory=list)  # the files read, in order (JUnit lists each one)


def without_lone_surrogates(text: str) -> str:
    """``text`` with every unpaired UTF-16 surrogate replaced by U+FFFD (cheap when there is none)."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


@dataclass(frozen=True)
class _Analyzed:
    document: Document
    context: FormatContext


def lint_text(text: str, path: str, settings: LintSettings | None = None, *,
              explicit: bool = True) -> list[Finding]:
    """Lint one file's text. ``explicit``: the user named this file (so "nothing recognised" is said).
    Lone surrogates (possible in text that came from JSON ``\\ud800`` escapes) become U+FFFD, as Go's
    decoders make them."""
    settings = settings or LintSettings()
    text = without_lone_surrogates(text)
    analyzed, findings = _analyze_text(text, path, settings, explicit=explicit)
    findings.extend(_run_rules(analyzed, settings))
    findings.extend(_run_corpus_rules(analyzed, settings))
    return _finish(findings, settings, {path: text})


def lint_configmap_data(data: Mapping[str, str], settings: LintSettings | None = None) -> list[Finding]:
    """Lint a ConfigMap's ``data`` exactly as ``lint_text`` lints the ConfigMap manifest that holds it (each
    value read as its key says: ``volcano-scheduler.conf`` is Volcano's conf whatever it holds, a value that
    is not YAML is an error only under a config-file key, an empty value is nothing to check, and a
    ``disable-file`` comment in any value covers every value, as it covers the whole manifest), except
    that each finding's path is its data key and its position is inside that value."""
    settings = settings or LintSettings()
    texts = {key: without_lone_surrogates(text) for key, text in data.items()}
    documents, findings = data_documents(texts)
    analyzed = _handled(documents, settings.kind, settings, findings)
    findings.extend(_run_rules(analyzed, settings))
    findings.extend(_run_corpus_rules(analyzed, settings))
    return _finish(findings, settings, texts, one_file=True)


def load_scheduler_model(text: str, path: str,
                         settings: LintSettings | None = None) -> tuple[SchedulerModel | None, list[Finding]]:
    """The effective scheduler model of a config file, or None with the findings that explain why.

    The model is returned only when the file holds exactly one scheduler config with no
    error-severity finding (warnings are returned alongside it).
    """
    settings = settings or LintSettings()
    analyzed, findings = _analyze_text(text, path, settings, explicit=True)
    findings.extend(_run_rules(analyzed, settings))
    findings = _finish(findings, settings, {path: text})
    models = [a.context.model for a in analyzed if a.context.model is not None]
    configs = [a for a in analyzed if _kind_of(a) not in ("priorityclass", "kube-scheduler-pod")]
    has_error = any(f.severity is Severity.ERROR for f in findings)
    if has_error or len(models) != 1 or len(configs) != 1:
        if not has_error and len(configs) != 1:
            # the refusal itself must be an error: a lone BPL004/BPL003 warning would end a run that
            # failed without saying so (the BPL004 warning says the same thing less exactly: dropped)
            findings = [*(f for f in findings if f.rule != CODE_UNRECOGNIZED),
                        Finding(path, 1, 1, CODE_UNRECOGNIZED, Severity.ERROR,
                                f"expected exactly one scheduler configuration, found {len(configs)}")]
        return None, findings
    return models[0], findings


def lint_paths(paths: Sequence[str], settings: LintSettings | None = None,
               stdin_text: str | None = None, *, jobs: int = 1) -> LintRun:
    """Lint files and directories (recursing into *.yaml, *.yml, *.json, *.conf, *.cfg); ``-`` is stdin.

    ``jobs`` > 1 checks files in up to that many worker processes when there are at least
    :data:`FILES_PER_WORKER` files per worker (:mod:`linter.workers`); the result is the same.
    """
    settings = settings or LintSettings()
    run = LintRun()
    # Memory stays flat in the number of files: a file's findings are filtered (inline suppressions
    # need its text) as soon as it is checked and its documents dropped. Only a file holding documents
    # a cross-file rule reads (PriorityClasses, today) is kept, with its text and findings, until the
    # cross-file rules have run: one of its suppressions may silence their findings.
    kinds = corpus_kinds(settings)
    analyzed: list[_Analyzed] = []
    deferred: list[Finding] = []
    texts: dict[str, str] = {}
    kept: list[Finding] = []
    targets = list(_expand(paths, run))
    workers = min(jobs, len(targets) // FILES_PER_WORKER)
    if workers > 1:  # only then is multiprocessing imported
        from linter.workers import in_workers

        check = functools.partial(_check_in_worker, settings=settings, kinds=kinds)
        results: Iterable[CheckedFile | None] = in_workers(targets, check, workers)
    else:
        results = (None for _ in targets)
    for (path, explicit), result in zip(targets, results, strict=True):
        checked = result or check_file(path, explicit, settings, kinds, stdin_text)
        run.findings.extend(checked.unreadable)
        if not checked.read:
            continue
        run.files += 1
        run.paths.append(checked.shown)
        if checked.corpus:
            analyzed.extend(checked.corpus)
            texts[checked.shown] = checked.text
            deferred.extend(checked.findings)
        else:
            kept.extend(checked.findings)
    deferred.extend(run.findings)  # unreadable paths
    deferred.extend(_run_corpus_rules(analyzed, settings, isolate=True))
    kept.extend(_finish(deferred, settings, texts))
    run.findings = sorted(set(kept))
    return run


@dataclass
class CheckedFile:
    """One file checked; ``read`` is False when it could not be read (``unreadable`` says why).
    ``findings`` are finished (suppressions applied) unless the file has ``corpus`` documents; only
    then is its ``text`` kept, for the suppressions the cross-file rules' findings must meet."""

    shown: str
    read: bool
    findings: list[Finding] = field(default_factory=list)
    corpus: list[_Analyzed] = field(default_factory=list)
    text: str = ""
    unreadable: list[Finding] = field(default_factory=list)


def check_file(path: str, explicit: bool, settings: LintSettings, kinds: frozenset[str],
               stdin_text: str | None = None) -> CheckedFile:
    """Read and check one file; documents of ``kinds`` (the ones a cross-file rule reads) are kept."""
    shown = "<stdin>" if path == "-" else path
    if path == "-":
        text = stdin_text
        problems: list[Finding] = []
    else:
        text, problems = _read(path)
    if text is None:
        return CheckedFile(shown, False, unreadable=problems)
    try:
        docs, findings = _analyze_text(text, shown, settings, explicit=explicit)
        findings.extend(_run_rules(docs, settings))
    except Exception as exc:  # a bug in binpack-lint (RecursionError, MemoryError too): this file only
        docs, findings = [], [_internal_error(shown, exc)]
    corpus = [a for a in docs if _kind_of(a) in kinds]
    if corpus:
        return CheckedFile(shown, True, findings, corpus, text)
    return CheckedFile(shown, True, _finish(findings, settings, {shown: text}))


def _check_in_worker(path: str, explicit: bool, *, settings: LintSettings,
                     kinds: frozenset[str]) -> CheckedFile | None:
    """``check_file`` in a worker process; None for what the parent must check itself: standard input,
    and a file with documents the cross-file rules read (the parent keeps those)."""
    if path == "-":
        return None
    checked = check_file(path, explicit, settings, kinds)
    return None if checked.corpus else checked


def corpus_kinds(settings: LintSettings) -> frozenset[str]:
    """The document kinds some enabled cross-file rule reads."""
    return frozenset(kind for rule in rules.corpus_rules() if settings.is_enabled(rule.CODE) for kind in rule.FORMATS)


# --- reading -------------------------------------------------------------------------------

def _expand(paths: Sequence[str], run: LintRun) -> Iterator[tuple[str, bool]]:
    seen: set[str] = set()
    for path in paths:
        if path == "-":
            yield path, True
        elif os.path.isdir(path):
            found, reported = False, len(run.findings)
            for target in _walk(path, run, seen):
                found = True
                yield target
            # a named directory with nothing to read must not pass as "no problems in 0 files"; one the
            # walk already reported (unlistable, or visited before) needs no second word
            if not found and len(run.findings) == reported:
                run.findings.append(Finding(path, 1, 1, CODE_UNRECOGNIZED, Severity.WARNING,
                                            f"no {', '.join('*' + s for s in LINT_SUFFIXES)} file in this "
                                            "directory or below it: nothing to check"))
        elif os.path.exists(path) or os.path.islink(path):
            yield path, True
        else:
            run.findings.append(Finding(path, 1, 1, CODE_UNREADABLE, Severity.ERROR, "no such file or directory"))


def _walk(root: str, run: LintRun, seen: set[str]) -> Iterator[tuple[str, bool]]:
    def unreadable(exc: OSError) -> None:  # os.walk skips what it cannot list unless told
        run.findings.append(Finding(exc.filename or root, 1, 1, CODE_UNREADABLE, Severity.ERROR,
                                    f"cannot read directory: {exc.strerror or exc}"))

    for dirpath, dirnames, filenames in os.walk(root, followlinks=True, onerror=unreadable):
        real = os.path.realpath(dirpath)
        if real in seen:  # a symlink loop, or the same folder reached twice
            run.findings.append(Finding(dirpath, 1, 1, CODE_UNREADABLE, Severity.WARNING,
                                        "directory already visited (symlink loop?); skipped"))
            dirnames[:] = []
            continue
        seen.add(real)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(LINT_SUFFIXES):
                yield os.path.join(dirpath, name), False


STDIN_HINT = "; use '-' to read standard input"


def _read(path: str) -> tuple[str | None, list[Finding]]:
    try:
        return read_text(path, MAX_FILE_BYTES), []
    except TextFileError as exc:
        reason = exc.reason + STDIN_HINT if exc.reason == NOT_REGULAR else exc.reason
        return None, [Finding(path, exc.line, exc.column, CODE_UNREADABLE, Severity.ERROR, reason)]


def decode_bytes(raw: bytes, path: str, sink: list[Finding]) -> str | None:
    """UTF-8 (with or without BOM) or nothing: Go's YAML decoders accept nothing else."""
    try:
        return decode(raw)
    except TextFileError as exc:
        sink.append(Finding(path, exc.line, exc.column, CODE_UNREADABLE, Severity.ERROR, exc.reason))
        return None


# --- analysis ------------------------------------------------------------------------------

def _analyze_text(text: str, path: str, settings: LintSettings, *,
                  explicit: bool) -> tuple[list[_Analyzed], list[Finding]]:
    findings: list[Finding] = []
    if not text.strip() and settings.kind not in ("kube-scheduler", "volcano"):  # those decode an empty file too
        if explicit or settings.kind:
            sev = Severity.ERROR if settings.kind else Severity.WARNING
            findings.append(Finding(path, 1, 1, CODE_EMPTY, sev, "file is empty: nothing to check"))
        return [], findings
    reading = read_stream(text, path, settings.kind, is_json=path.endswith(".json"))
    if (exc := reading.error) is not None:
        if settings.kind is None and exc.code == INVALID_YAML and not mentions_a_known_format(text):
            # A Helm template or any other file that is not YAML and names none of our kinds is not ours
            # to judge: the pre-commit hook must never fail on it, not even with --strict.
            return [], [Finding(path, exc.line, exc.column, CODE_UNRECOGNIZED, Severity.WARNING,
                                "not checked: not valid YAML, and nothing in it names a scheduler config, "
                                f"Volcano conf or PriorityClass ({exc.message})")]
        return [], [Finding(path, exc.line, exc.column, exc.code, Severity.ERROR, exc.message)]
    findings.extend(reading.findings)
    analyzed = _handled(reading.documents, settings.kind or reading.kind, settings, findings)
    if not analyzed and not findings and explicit:
        findings.append(Finding(path, 1, 1, CODE_UNRECOGNIZED, Severity.WARNING,
                                "no scheduler configuration or PriorityClass recognised in this file"))
    return analyzed, findings


def _handled(documents: Iterable[Document], kind: str | None, settings: LintSettings,
             findings: list[Finding]) -> list[_Analyzed]:
    """The documents (ConfigMaps and Lists opened up) that a format handles, each with its context."""
    analyzed: list[_Analyzed] = []
    for doc in _flatten(documents, findings):
        handler = formats.handler_for(doc.data, kind, doc.embedded_key,
                                      scheduler=settings.scheduler, custom_plugins=settings.custom_plugins)
        if handler is not None:
            analyzed.append(_Analyzed(doc, handler.analyze(doc)))
    return analyzed


def _flatten(documents: Iterable[Document], findings: list[Finding]) -> Iterator[Document]:
    """Documents with ConfigMaps and Lists opened up, depth-first, in file order."""
    stack = list(reversed(list(documents)))
    while stack:
        doc = stack.pop()
        if doc.data is None:
            continue
        if is_configmap(doc.data):
            inner, problems = embedded_documents(doc)
            findings.extend(problems)
            stack.extend(reversed(inner))
        elif (items := list_items(doc)) is not None:
            stack.extend(reversed(items))
        else:
            yield doc


# --- rules ---------------------------------------------------------------------------------

def _stamp(rule: Any, doc: Document, v: Violation) -> Finding:
    if v.position is not None:
        line, col = doc.map(*v.position)
    else:
        line, col = doc.locate(v.pointer, key=v.on_key)
    return Finding(doc.path, line, col, rule.CODE, v.severity or rule.SEVERITY, v.message,  # overrides: _finish
                   v.detail)


def _kind_of(a: _Analyzed) -> str:
    return str(getattr(a.context, "kind", ""))


def _run_rules(analyzed: Sequence[_Analyzed], settings: LintSettings) -> Iterator[Finding]:
    for a in analyzed:
        kind = _kind_of(a)
        for rule in rules.for_format(kind):
            if settings.is_enabled(rule.CODE):
                for v in rule.check(a.context):
                    yield _stamp(rule, a.document, v)


def _run_corpus_rules(analyzed: Sequence[_Analyzed], settings: LintSettings, *,
                      isolate: bool = False) -> Iterator[Finding]:
    """Cross-file rules; with ``isolate``, a crash in one becomes a BPL009 finding on the first file it read."""
    for rule in rules.corpus_rules():
        if not settings.is_enabled(rule.CODE):
            continue
        contexts = [a.context for a in analyzed if _kind_of(a) in rule.FORMATS]
        if not contexts:
            continue
        try:
            found = [_stamp(rule, ctx.document, v) for ctx, v in rule.check_corpus(contexts)]
        except Exception as exc:
            if not isolate:
                raise
            found = [_internal_error(contexts[0].document.path, exc, f" (cross-file rule {rule.CODE})")]
        yield from found


def _internal_error(path: str, exc: BaseException, where: str = "") -> Finding:
    return Finding(path, 1, 1, CODE_INTERNAL, Severity.ERROR,
                   f"internal error while checking this file{where}: {type(exc).__name__}: {exc}"[:500])


def _finish(findings: list[Finding], settings: LintSettings, texts: dict[str, str], *,
            one_file: bool = False) -> list[Finding]:
    """Suppressions, severity overrides and readable messages applied, sorted; ``one_file``: ``texts`` are the
    data values of one ConfigMap (``disable-file`` in one covers them all, see ``suppress.apply``)."""
    from linter import suppress

    kept = suppress.apply((f for f in findings if settings.is_enabled(f.rule)), texts, settings.is_enabled,
                          one_file=one_file)
    kept = [
        Finding(f.path, f.line, f.column, f.rule, settings.severity_overrides.get(f.rule, f.severity),
                *readable(f.message, f.detail))
        for f in kept
    ]
    return sorted(set(kept))
