"""Fitting a profile on gold M2: the merge settings that best reproduce its spans and a
logistic regression from errtype's edit features to its categories (scikit-learn, extra
``profile``, imported only here; the fitted model is stored as JSON numbers)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ..align import AlignOp, align
from ..edit import Edit
from ..merge import MAX_RULE_RUN, MergeSettings, apply_merge_settings
from ..tokens import Sentence
from ..version import __version__
from .features import edit_features
from .matrix import binary_matrix, logistic_regression
from .profile import Profile, ProfileError
from .spanfit import choose_span_model, parsed_folds
from .spanmodel import Lexicon, SpanModel
from .spans import PRF, GoldSentence, SpanKey, span_prf

#: regularisation of the logistic regression (inverse strength, scikit-learn's ``C``)
DEFAULT_C = 4.0
#: class weights (n_edits / (n_classes * n_class)) ** BALANCE: 0 none, 1 scikit-learn's
#: "balanced"; in between, rare categories count more without drowning the common ones
BALANCE = 0.5
#: (C, balance) tried by inner cross-validation on the training gold
GRID: tuple[tuple[float, float], ...] = tuple((c, b) for b in (0.5, 0.0, 1.0) for c in (1.0, 4.0))
INNER_FOLDS = 4
#: categories with at least this many edits count in the macro average
MACRO_MIN = 10
_BATCH = 256


@dataclass
class Parsed:
    """A gold sentence parsed on both sides, with the spans of errtype's rules."""

    gold: GoldSentence
    orig: Sentence
    cor: Sentence
    rule_spans: list[tuple[int, int, int, int]]
    #: per gold edit: (errtype's type, features)
    examples: list[tuple[str, list[str]]] = field(default_factory=list)
    #: the alignment the rule spans come from (what the learned split cuts between)
    seq: list[AlignOp] = field(default_factory=list)
    #: the language's word test (the classifier's Hunspell lexicon), read by the span step
    lexicon: Lexicon | None = None

    def edit_spans(self, settings: MergeSettings, span_model: SpanModel | None = None
                   ) -> list[tuple[int, int, int, int]]:
        """errtype's edit spans at ``settings``, then ``span_model``'s cuts and joins."""
        out = apply_merge_settings(self.rule_spans, self.orig, self.cor, settings)
        if span_model is not None:
            out = span_model.apply(out, self.seq, self.orig, self.cor, self.lexicon)
        return [tuple(s[:4]) for s in out]  # type: ignore[misc]

    def spans(self, settings: MergeSettings, span_model: SpanModel | None = None
              ) -> list[SpanKey]:
        """errtype's edits at ``settings`` (and ``span_model``) as compared with the gold."""
        c = self.cor
        return [(s[0], s[1], " ".join(t.text for t in c[s[2]:s[3]]))
                for s in self.edit_spans(settings, span_model)]


def parse_gold(annotator: object, sents: Sequence[GoldSentence]) -> list[Parsed]:
    """Parse every sentence, find errtype's spans and type every gold edit (at its gold span,
    unminimised, as ``errtype-m2 -gold -no_min``, with ``feats=True``)."""
    language = annotator.language  # type: ignore[attr-defined]
    parser = annotator.parser  # type: ignore[attr-defined]
    if not hasattr(language, "rule_spans"):
        raise ProfileError(f"profiles are fitted for languages of the generic UD classifier; "
                           f"{language.code!r} has its own rules")
    if getattr(language, "profile", None) is not None:
        raise ProfileError("fit a profile with errtype's own types, not another profile's")
    language = language.with_options(feats=True)   # types name the differing UD features
    texts: list[str] = []
    for s in sents:
        texts += [" ".join(s.tokens), " ".join(s.cor_tokens)]
    parsed: list[Sentence] = []
    for k in range(0, len(texts), _BATCH):
        parsed += parser.parse_many(texts[k:k + _BATCH], False)
    out: list[Parsed] = []
    lexicon = getattr(language.classifier, "is_valid_word", None)
    if lexicon is not None:     # asked again and again for the same words by the span fit
        lexicon = lru_cache(maxsize=None)(lexicon)
    for i, s in enumerate(sents):
        o, c = parsed[2 * i], parsed[2 * i + 1]
        seq = align(o, c, language, False).align_seq
        p = Parsed(s, o, c, list(language.rule_spans(seq, o, c, MAX_RULE_RUN)), seq=list(seq),
                   lexicon=lexicon)
        for e in s.edits:
            if e.c_start is None:   # left out for an overlapping edit: its own correction
                own = [*s.tokens[:e.start], *e.cor.split(), *s.tokens[e.end:]]
                c2 = next(iter(parser.parse_many([" ".join(own)], False)))
                cs, ce = e.start, e.start + len(e.cor.split())
            else:
                c2, cs, ce = c, e.c_start, e.c_end
            edit = Edit.from_spans(o, c2, e.start, e.end, cs, ce)
            etype = language.classify(edit, o, c2)
            p.examples.append((etype, edit_features(edit, o, c2, etype, lexicon)))
        out.append(p)
    return out


def best_merge(parsed: Sequence[Parsed]) -> tuple[MergeSettings, dict[MergeSettings, PRF]]:
    """The merge settings with the highest span F1 on ``parsed`` (ties: fewer switches), and
    every combination's scores."""
    gold = [[e.key for e in p.gold.edits] for p in parsed]
    scores = {s: span_prf(gold, [p.spans(s) for p in parsed])
              for s in MergeSettings.combinations()}
    best = max(scores, key=lambda s: (round(scores[s].f1, 6),
                                      -sum(s.to_dict().values())))
    return best, scores


def fit_model(parsed: Sequence[Parsed], c: float = DEFAULT_C, balance: float = 0.0
              ) -> tuple[list[str], list[str], list[list[float]], list[float]]:
    """(classes, vocabulary, coef, intercept) of a logistic regression from the examples'
    features to their gold categories."""
    import numpy as np

    learner = logistic_regression()
    rows = [(f, e.category) for p in parsed
            for e, (_, f) in zip(p.gold.edits, p.examples, strict=True)]
    if not rows:
        raise ProfileError("no gold edits to fit a profile on")
    vocab, x = binary_matrix([f for f, _ in rows])
    labels = [y for _, y in rows]
    classes = sorted(set(labels))
    if len(classes) == 1:
        return classes, vocab, [[0.0] * len(vocab)], [0.0]
    freq = Counter(labels)
    weights = {k: (len(labels) / (len(classes) * n)) ** balance for k, n in freq.items()}
    model = learner(C=c, max_iter=3000, class_weight=weights if balance else None)
    model.fit(x, labels)
    coef, intercept = np.asarray(model.coef_), np.asarray(model.intercept_)
    if len(classes) == 2:       # one row: class 1 against class 0
        coef = np.vstack([np.zeros_like(coef[0]), coef[0]])
        intercept = np.array([0.0, intercept[0]])
    order = [list(model.classes_).index(k) for k in classes]
    return classes, vocab, coef[order].tolist(), intercept[order].tolist()


def choose_learner(parsed: Sequence[Parsed], k: int = INNER_FOLDS
                   ) -> tuple[float, float]:
    """The (C, balance) of :data:`GRID` with the best mean of micro and macro agreement in
    ``k``-fold cross-validation on ``parsed`` alone (ties: the earlier in the grid)."""
    parts = parsed_folds(parsed, k)
    best, best_score = GRID[0], -1.0
    for c, balance in GRID:
        per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for i, test in enumerate(parts):
            train = [p for j, part in enumerate(parts) if j != i for p in part]
            if not test or not train:
                continue
            classes, vocab, coef, intercept = fit_model(train, c, balance)
            model = Profile("xx", MergeSettings(), classes, vocab, coef, intercept, __version__)
            for p in test:
                for e, (_, f) in zip(p.gold.edits, p.examples, strict=True):
                    per[e.category][0] += model.predict(f) == e.category
                    per[e.category][1] += 1
        score = Evaluation(dict(per), PRF(0, 0, 0), PRF(0, 0, 0))
        if (score.micro + score.macro) / 2 > best_score:
            best, best_score = (c, balance), (score.micro + score.macro) / 2
    return best


def fit(parsed: Sequence[Parsed], language: str, c: float | None = None,
        meta: dict[str, object] | None = None, balance: float = BALANCE,
        learn_spans: bool = True) -> Profile:
    """A profile fitted on ``parsed`` gold sentences of ``language``; with ``c`` None the
    regularisation and class weighting are chosen by :func:`choose_learner`; with
    ``learn_spans`` the learned span step is kept when cross-validation on ``parsed`` favours
    it (:func:`.spanfit.choose_span_model`)."""
    merge, scores = best_merge(parsed)
    span_model, span_info = choose_span_model(parsed, merge) if learn_spans else (None, {})
    if c is None:
        c, balance = choose_learner(parsed)
    classes, vocab, coef, intercept = fit_model(parsed, c, balance)
    info = {"sentences": len(parsed), "edits": sum(len(p.examples) for p in parsed),
            "span_f1_default": round(scores[MergeSettings()].f1, 2),
            "span_f1_fitted": round(scores[merge].f1, 2), "c": c, "balance": balance,
            **span_info, **(meta or {})}
    return Profile(language, merge, classes, vocab, coef, intercept, __version__, meta=info,
                   spans=span_model)


@dataclass
class Evaluation:
    """A profile scored on held-out gold: categories and spans."""

    per_category: dict[str, list[int]]          # gold category -> [agreeing, edits]
    span_default: PRF
    span_profile: PRF
    confusion: Counter = field(default_factory=Counter)

    @property
    def micro(self) -> float:
        n = sum(v[1] for v in self.per_category.values())
        return 100 * sum(v[0] for v in self.per_category.values()) / max(1, n)

    @property
    def macro(self) -> float:
        big = [a / n for a, n in self.per_category.values() if n >= MACRO_MIN]
        return 100 * sum(big) / max(1, len(big))

    def add(self, other: Evaluation) -> Evaluation:
        per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for src in (self.per_category, other.per_category):
            for k, (a, n) in src.items():
                per[k][0] += a
                per[k][1] += n
        d, p = self.span_default, self.span_profile
        od, op = other.span_default, other.span_profile
        return Evaluation(dict(per), PRF(d.tp + od.tp, d.fp + od.fp, d.fn + od.fn),
                          PRF(p.tp + op.tp, p.fp + op.fp, p.fn + op.fn),
                          self.confusion + other.confusion)


def evaluate(profile: Profile, parsed: Sequence[Parsed]) -> Evaluation:
    """Agreement of the profile's categories with the gold ones on the gold spans, and span
    P/R/F1 of errtype's default and the profile's merge settings."""
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    confusion: Counter = Counter()
    for p in parsed:
        for e, (_, f) in zip(p.gold.edits, p.examples, strict=True):
            got = profile.predict(f)
            per[e.category][0] += got == e.category
            per[e.category][1] += 1
            if got != e.category:
                confusion[(e.category, got)] += 1
    gold = [[e.key for e in p.gold.edits] for p in parsed]
    return Evaluation(dict(per), span_prf(gold, [p.spans(MergeSettings()) for p in parsed]),
                      span_prf(gold, [p.spans(profile.merge, profile.spans) for p in parsed]),
                      confusion)


def cross_validate(parsed: Sequence[Parsed], language: str, k: int = 5,
                   c: float | None = None) -> Evaluation:
    """``k``-fold cross-validation (folds by document, :func:`.spans.folds`)."""
    parts = parsed_folds(parsed, k)
    total: Evaluation | None = None
    for i, test in enumerate(parts):
        if not test:
            continue
        train = [p for j, part in enumerate(parts) if j != i for p in part]
        result = evaluate(fit(train, language, c), test)
        total = result if total is None else total.add(result)
    if total is None:
        raise ProfileError("no gold sentences to cross-validate on")
    return total
