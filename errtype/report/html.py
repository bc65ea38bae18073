"""The self-contained HTML report: inline CSS, SVG and a small script (no network, no CDN)."""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from typing import Any
from urllib.parse import quote, urlencode

from .. import __version__
from .measures import MISSED, NO_GOLD, Report
from .svg import corpus_chart, frequency_chart, heatmap, type_chart
from .tables import (
    Table,
    baseline_table,
    baseline_type_table,
    comparison_table,
    confusion_table,
    corpus_table,
    geclens_table,
    signature_table,
    type_comparison_table,
    type_table,
)

CSS = """
body{font:14px/1.45 Helvetica,Arial,"PingFang SC","Hiragino Sans GB","Microsoft YaHei",
"Noto Sans CJK SC","Source Han Sans SC","WenQuanYi Micro Hei",sans-serif;margin:0;color:#222;
background:#fafafa}
:lang(ja){font-family:Helvetica,Arial,"Hiragino Sans","Yu Gothic","Meiryo","Noto Sans CJK JP",
"Source Han Sans JP",sans-serif}
header{background:#26456e;color:#fff;padding:14px 24px}
header h1{margin:0;font-size:20px} header p{margin:4px 0 0;opacity:.85}
nav{padding:6px 24px;background:#e8edf3;position:sticky;top:0;z-index:2}
nav a{margin-right:14px;color:#26456e;text-decoration:none;font-weight:bold}
main{padding:8px 24px 40px} section{margin:18px 0}
h2{font-size:17px;border-bottom:2px solid #26456e;padding-bottom:3px}
table{border-collapse:collapse;font-size:12.5px;margin:6px 0;background:#fff}
th,td{border:1px solid #ccd;padding:3px 7px;text-align:right;white-space:nowrap}
th{background:#eef1f6} td:first-child,th:first-child{text-align:left}
tr:hover td{background:#f3f7ff} .note{color:#555;font-size:12.5px}
.scroll{overflow-x:auto;max-width:100%} .sig{font-family:monospace;font-size:12px}
.sent{background:#fff;border:1px solid #ddd;border-radius:4px;padding:6px 10px;margin:6px 0}
.sent .n{color:#888;font-size:11px;margin-right:6px} .tok{padding:0 1px}
.tok.tp{background:#c8efc8} .tok.fp{background:#fdd0cc} .tok.fn{background:#fff0a8}
.ins{display:inline-block;width:3px;height:14px;margin:0 1px;vertical-align:middle}
.ins.tp{background:#2a9d2a} .ins.fp{background:#d33} .ins.fn{background:#d9b400}
.edits{margin-top:3px} .edit{display:inline-block;border-radius:3px;padding:0 5px;margin:2px;
font-size:12px;border:1px solid #bbb} .edit.tp{background:#c8efc8} .edit.fp{background:#fdd0cc}
.edit.fn{background:#fff0a8} .hyp{color:#445;font-size:12.5px;margin-top:2px}
.controls label{margin-right:12px} .controls select{max-width:260px}
.legend span{padding:0 6px;margin-right:6px;border-radius:3px}
.notes{background:#fff6d6;border:1px solid #e5c96b;padding:6px 12px;margin-top:10px}
.tools{margin:8px 0 0} button.csv{font-size:11px;padding:1px 8px}
th.sortable{cursor:pointer;user-select:none} th.sortable:hover{background:#dde4ee}
th[data-sort=asc]::after{content:" \\25B2";font-size:9px}
th[data-sort=desc]::after{content:" \\25BC";font-size:9px}
.confusion td a{display:block;color:#1a3d6d;text-decoration:none}
.confusion td a:hover{text-decoration:underline}
.confusion a.diag{background:#d6efd6;font-weight:bold}
.confusion th{white-space:nowrap} .edit.hit{outline:2px solid #26456e}
#b-pair button{font-size:11px;margin-left:4px}
svg.heatmap a.cell{cursor:pointer} svg.heatmap a.cell:hover rect{stroke:#d62728;stroke-width:2}
span.better{color:#1a7f37;font-weight:bold} span.worse{color:#b42318;font-weight:bold}
"""

JS = r"""
(function(){
const D = JSON.parse(document.getElementById('report-data').textContent);
const $ = id => document.getElementById(id);
const PAGE = 50; let page = 0; let pair = null;  // pair: [gold type, system type]
const ESC = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'};
function esc(s){ return String(s).replace(/[&<>"]/g, c => ESC[c]); }
// tokens are shown joined by spaces, except where a script written without spaces (Chinese,
// Japanese, Thai, ...) meets one; a sentence segmented in characters (ChERRANT's char M2) is
// shown as written, every token joined without a space
const UNSPACED = new RegExp('[\\u0E00-\\u0EFF\\u1000-\\u109F\\u1780-\\u17FF\\u2E80-\\u303F' +
  '\\u3040-\\u9FFF\\uF900-\\uFAFF\\uFE30-\\uFE4F\\uFF00-\\uFFEF\\u{20000}-\\u{3FFFF}]', 'u');
function gap(a, b, chars){
  return chars || UNSPACED.test(Array.from(a).pop() || '') || UNSPACED.test(Array.from(b)[0] || '')
    ? '' : ' ';
}
function isChars(toks){
  return toks.some(t => UNSPACED.test(t)) && toks.every(t => Array.from(t).length === 1);
}
function joinToks(toks, chars){
  return toks.map((t, k) => (k ? gap(toks[k - 1], t, chars) : '') + t).join('');
}
function joinText(text, chars){
  return joinToks(String(text).split(' ').filter(t => t !== ''), chars);
}
function fill(sel, items, all){
  sel.innerHTML = (all ? '<option value="">' + all + '</option>' : '') +
    items.map(x => '<option value="' + esc(x) + '">' + esc(x) + '</option>').join('');
}
fill($('b-sys'), D.systems); fill($('b-type'), D.types, 'all types');
fill($('t-sys'), D.systems); fill($('c-sys'), D.systems);

// ---- sortable tables: click a header; numbers first descending, text ascending; dashes last
function sortKey(td){
  const t = td.textContent.trim();
  if (t === '' || t === '\u2014') return null;
  return /^[\[<]?[-+]?\d/.test(t) ? parseFloat(t.replace(/^[\[<]/, '')) : t.toLowerCase();
}
function sortTable(th){
  const table = th.closest('table'), body = table.tBodies[0], col = th.cellIndex;
  const rows = Array.from(body.rows).map((tr, i) => [sortKey(tr.cells[col]), i, tr]);
  const numeric = rows.some(r => typeof r[0] === 'number');
  let dir = th.dataset.sort ? (th.dataset.sort === 'asc' ? 'desc' : 'asc')
                            : (numeric ? 'desc' : 'asc');
  const sign = dir === 'asc' ? 1 : -1;
  rows.sort((a, b) => {
    const x = a[0], y = b[0];
    if (x === null || y === null) return (x === null) - (y === null) || a[1] - b[1];
    if (typeof x !== typeof y) return (typeof x === 'number' ? -1 : 1);
    return (x < y ? -sign : x > y ? sign : 0) || a[1] - b[1];
  });
  rows.forEach(r => body.appendChild(r[2]));
  table.querySelectorAll('th').forEach(h => {
    delete h.dataset.sort; h.removeAttribute('aria-sort'); });
  th.dataset.sort = dir; th.setAttribute('aria-sort', dir === 'asc' ? 'ascending' : 'descending');
}
document.querySelectorAll('table.sortable thead th').forEach(th => {
  th.classList.add('sortable'); th.title = 'sort';
  th.addEventListener('click', () => sortTable(th));
});

// ---- CSV download of a table as shown (current order); dashes become empty cells; text a
// spreadsheet would run as a formula gets a leading ' (tables.spreadsheet_cell), numbers are kept
function csvCell(c){
  let t = c.textContent.trim();
  if (t === '\u2014') t = '';
  const number = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?%?$/;
  if (/^[=+\-@\t\r]/.test(t) && !number.test(t)) t = "'" + t;
  return /[",\n\r]/.test(t) ? '"' + t.replace(/"/g, '""') + '"' : t;
}
function tableCsv(table){
  return Array.from(table.rows).map(tr => Array.from(tr.cells).map(csvCell).join(','))
    .join('\n') + '\n';
}
document.querySelectorAll('button.csv').forEach(b => b.addEventListener('click', () => {
  const blob = new Blob([tableCsv($(b.dataset.table))], {type: 'text/csv;charset=utf-8'});
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob); a.download = b.dataset.file;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}));

// ---- confusion cells: [start, end, cor, type, status, n, partner] -> [gold, system] or null
function cell(e){
  if (e[4] === 'TP') return [e[3], e[6]];
  if (e[4] === 'FN') return [e[3], e[6] === null ? D.missed : e[6]];
  return e[6] === null ? [D.nogold, e[3]] : null;
}
function inPair(e){ const c = cell(e); return c !== null && c[0] === pair[0] && c[1] === pair[1]; }

function showSystemTables(){
  document.querySelectorAll('.per-system').forEach(t => {
    const sel = $(t.dataset.select);
    t.style.display = t.dataset.system === sel.value ? '' : 'none';});
}
function matches(e, type, status){
  return (!type || e[3] === type) && (!status || e[4] === status);
}
function hit(e, type, status){ return pair ? inPair(e) : matches(e, type, status); }
function marked(e, type, status){  // also the system's edit at a gold edit of the cell
  return hit(e, type, status) || (pair !== null && e[4] === 'FP' && e[6] === pair[0] &&
                                  e[3] === pair[1]);
}
function selected(){
  const sys = $('b-sys').value, type = $('b-type').value, status = $('b-status').value;
  const only = $('b-only').checked;
  const out = [];
  D.sentences.forEach((s, i) => {
    const edits = s.sys[sys] || [];
    if ((pair || type || status || only) && !edits.some(e => hit(e, type, status))) return;
    out.push(i);
  });
  return out;
}
function totals(){
  const sys = $('b-sys').value, type = $('b-type').value;
  const t = {TP:0, FP:0, FN:0}; let n = 0;
  D.sentences.forEach(s => (s.sys[sys] || []).forEach(e => {
    if (pair ? inPair(e) : (!type || e[3] === type)) { t[e[4]] += e[5]; n += e[5]; }}));
  const el = $('browser-totals');
  el.dataset.tp = t.TP; el.dataset.fp = t.FP; el.dataset.fn = t.FN; el.dataset.edits = n;
  el.textContent = pair ? 'gold ' + pair[0] + ' \u2192 system ' + pair[1] + ': ' + n + ' edits'
    : (type || 'all types') + ': TP ' + t.TP + ', FP ' + t.FP + ', FN ' + t.FN;
  $('b-pair').innerHTML = pair ? 'cell <b>' + esc(pair[0]) + ' \u2192 ' + esc(pair[1]) +
    '</b><button id="b-unpair" type="button">clear</button>' : '';
  if (pair) $('b-unpair').addEventListener('click', () => { pair = null; page = 0; render(); });
}
function renderSentence(i, sys, type, status){
  const s = D.sentences[i], edits = s.sys[sys] || [], chars = isChars(s.src);
  const cls = s.src.map(() => []), ins = {};
  edits.forEach(e => {
    const c = e[4].toLowerCase();
    if (e[0] === e[1]) (ins[e[0]] = ins[e[0]] || []).push(c);
    else for (let k = e[0]; k < e[1]; k++) cls[k].push(c);
  });
  let h = '<div class="sent" data-index="' + i + '" data-id="' + s.id + '"><span class="n">' +
    s.id + '</span>';
  for (let k = 0; k <= s.src.length; k++) {
    (ins[k] || []).forEach(c => { h += '<span class="ins ' + c + '"></span>'; });
    if (k < s.src.length)
      h += '<span class="tok ' + (cls[k][0] || '') + '">' + esc(s.src[k]) + '</span>' +
        (k + 1 < s.src.length ? gap(s.src[k], s.src[k + 1], chars) : ' ');
  }
  h += '<div class="hyp">&rarr; ' + esc(joinText(s.hyp[sys], chars)) + '</div><div class="edits">';
  const filtered = pair || type || status;
  edits.forEach(e => {
    const orig = joinToks(s.src.slice(e[0], e[1]), chars) || '\u2205';
    const other = e[6] !== null && e[6] !== e[3] ?
      ' <i>(' + (e[4] === 'FP' ? 'gold ' : 'system ') + esc(e[6]) + ')</i>' : '';
    h += '<span class="edit ' + e[4].toLowerCase() + (filtered && marked(e, type, status) ?
      ' hit' : '') + '" data-type="' + esc(e[3]) + '" data-status="' + e[4] + '">' +
      esc(orig) + ' &rarr; ' + esc((e[2] !== '-NONE-' && joinText(e[2], chars)) || '\u2205') +
      ' <b>' + esc(e[3]) +
      '</b> ' + e[4] +
      (e[5] > 1 ? ' \u00d7' + e[5] : '') + other + '</span>';
  });
  return h + '</div></div>';
}
function render(){
  const sys = $('b-sys').value, idx = selected();
  const type = $('b-type').value, status = $('b-status').value;
  const pages = Math.max(1, Math.ceil(idx.length / PAGE));
  page = Math.min(page, pages - 1);
  $('browser-count').textContent = idx.length + ' sentences, page ' + (page + 1) + ' of ' + pages;
  $('browser-count').dataset.count = idx.length;
  $('browser-list').innerHTML = idx.slice(page * PAGE, (page + 1) * PAGE)
    .map(i => renderSentence(i, sys, type, status)).join('');
  totals();
}
// the address presets the view: #sys=NAME&type=TYPE&status=FP&only=1&page=N, or a confusion
// cell #sys=NAME&gold=TYPE&hyp=TYPE (set by the cell links); &view=SECTION shows one section
function applyHash(first){
  const H = new URLSearchParams(location.hash.slice(1));
  const sys = H.get('sys');
  if (sys && D.systems.includes(sys))
    ['b-sys', 't-sys', 'c-sys'].forEach(id => { $(id).value = sys; });
  if (H.get('type') && D.types.includes(H.get('type'))) $('b-type').value = H.get('type');
  if (['TP','FP','FN'].includes(H.get('status'))) $('b-status').value = H.get('status');
  if (H.get('only')) $('b-only').checked = true;
  page = H.get('page') ? Math.max(0, parseInt(H.get('page'), 10) - 1 || 0) : 0;
  pair = H.get('gold') && H.get('hyp') ? [H.get('gold'), H.get('hyp')] : null;
  if (pair) { $('b-type').value = ''; $('b-status').value = ''; }
  showSystemTables(); render();
  if (first && H.get('view')) document.querySelectorAll('main > section').forEach(sec => {
    sec.style.display = sec.id === H.get('view') ? '' : 'none'; });  // one section only
  if (!first && (pair || H.get('type'))) $('browser').scrollIntoView();
}
['b-sys', 'b-type', 'b-status', 'b-only'].forEach(id => $(id).addEventListener('change', () => {
  if (id !== 'b-sys') pair = null;
  page = 0; render(); }));
$('b-prev').addEventListener('click', () => {page = Math.max(0, page - 1); render();});
$('b-next').addEventListener('click', () => {page += 1; render();});
['t-sys', 'c-sys'].forEach(id => $(id).addEventListener('change', showSystemTables));
window.addEventListener('hashchange', () => { if (location.hash.includes('=')) applyHash(false); });
applyHash(true);
document.body.dataset.ready = 'yes';
})();
"""


def table_html(t: Table, cls: str = "", data: dict[str, str] | None = None,
               cell: Callable[[list[str], int], str] | None = None) -> str:
    """A sortable table with a CSV download button; ``cls`` and ``data`` (``data-*``
    attributes) go on the wrapper, ``cell(row, j)`` may give a cell's inner HTML (default: its
    escaped text)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in t.header)
    body = "".join("<tr>" + "".join(f"<td>{cell(row, j) if cell else escape(c)}</td>"
                                    for j, c in enumerate(row)) + "</tr>" for row in t.rows)
    key = escape(t.key)
    attrs = "".join(f' data-{k}="{escape(v)}"' for k, v in (data or {}).items())
    return (f'<div class="tbl {cls}"{attrs}><div class="tools"><button type="button" '
            f'class="csv" data-table="table-{key}" data-file="{key}.csv" title="download this '
            f'table as CSV">CSV</button></div><div class="scroll"><table id="table-{key}" '
            f'class="sortable"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
            f"</div></div>")


def confusion_html(r: Report, system: str) -> str:
    """The confusion table of a system; each count links to its sentences in the browser."""
    t = confusion_table(r, system)

    def cell(row: list[str], j: int) -> str:
        text = escape(row[j])
        if j < 2 or not row[j]:
            return text
        frag = urlencode({"sys": system, "gold": row[0], "hyp": t.header[j]}, quote_via=quote)
        diag = ' class="diag"' if row[0] == t.header[j] else ""
        return f'<a href="#{escape(frag)}"{diag}>{text}</a>'

    return table_html(t, "per-system confusion", {"select": "c-sys", "system": system}, cell)


def _browser_data(r: Report) -> str:
    data: dict[str, Any] = {"systems": r.systems, "types": r.types, "missed": MISSED,
                            "nogold": NO_GOLD, "sentences": r.sentences}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c")  # no "</script>" or "<!--" inside the script element


def _marks_note(r: Report) -> str:
    if not r.baseline:
        return ""
    return (f" ▲/▼ (outlined): the system is better/worse than the baseline "
            f"{escape(str(r.options.baseline))} on the type (paired bootstrap and approximate "
            f"randomisation both, Holm over the systems, p &lt; 0.05).")


def _significance_cell(column: int) -> Callable[[list[str], int], str]:
    """Cells of a baseline table; the "vs baseline" column coloured."""

    def cell(row: list[str], j: int) -> str:
        text = escape(row[j])
        if j == column and row[j]:
            return f'<span class="{row[j]}">{text}</span>'
        return text

    return cell


def _baseline_section(r: Report) -> str:
    """Every system against the baseline: overall measures, then per type."""
    o = r.options
    overall, types = baseline_table(r), baseline_type_table(r)
    return (f'<section id="pairs"><h2>Against the baseline {escape(str(o.baseline))}</h2>'
            f"{table_html(overall, cell=_significance_cell(len(overall.header) - 1))}"
            f"<p class=\"note\">Each other system against the baseline, on the same "
            f"sentences: two-sided paired bootstrap ({o.bootstrap} shared resamples) and "
            f"approximate randomisation ({o.trials} trials, seed {o.seed}) of the difference; "
            f"Holm's correction per measure over the {len(r.systems) - 1} system(s). Delta: "
            f"system minus baseline; for over-correction lower is better. vs baseline: both "
            f"Holm-corrected p-values &lt; 0.05.</p><h3>Per error type</h3>"
            f"{table_html(types, cell=_significance_cell(len(types.header) - 1))}"
            f"<p class=\"note\">F{o.beta:g} (TP/FN by gold type, FP by system type), "
            f"type-only F{o.beta:g} and sentence-level detection F1 of each type; Holm per "
            f"type and measure. A type a system never touches (no TP, FP or FN) has no row."
            f"</p></section>")


def _attribution_note(r: Report) -> str:
    """What the attribution columns of the per-type tables are (empty without them)."""
    if not r.options.attribution:
        return ""
    return (" METRIC:METHOD sum / per edit: the system's edits of the type, their contributions "
            "to the metric's sentence scores summed over the corpus / averaged per edit (shapley: "
            "Shapley values over the sentence's edits; add: the edit alone on the source; sub: "
            "the hypothesis without it; add and sub scaled to the sentence's change, as "
            "gec-metrics does), in the metric's own units; \u2014: no edit of the type.")


def render_html(r: Report, title: str = "errtype report") -> str:
    """The whole report as one HTML document."""
    o = r.options
    sections = []
    sections.append(f'<section id="corpus"><h2>Corpus scores</h2>{table_html(corpus_table(r))}'
                    f"{corpus_chart(r)}<p class=\"note\">ERRANT: span-based correction "
                    f"(errant_compare -cs); M2: MaxMatch (m2scorer 3.2); GLEU+ against the "
                    f"annotators' corrections. Macro F: mean per-type F over gold types. "
                    f"Intervals: percentile bootstrap over sentences ({o.bootstrap} "
                    f"resamples, seed {o.seed}).</p></section>")
    sections.append(f'<section id="sentence-measures"><h2>Sentence-level measures</h2>'
                    f"{table_html(geclens_table(r))}<p class=\"note\">Detection: a sentence is "
                    f"flagged when the system edits it and erroneous when the chosen reference "
                    f"does (F1). Success: sentences with gold edits corrected exactly "
                    f"(no FP, no FN). Over-correction: share of the sentences no annotator "
                    f"changed that the system changed. Change rate: share of sentences "
                    f"changed.</p></section>")
    types_html = "".join(
        table_html(type_table(r, s), "per-system", {"select": "t-sys", "system": s})
        for s in r.systems)
    sections.append(f'<section id="types"><h2>Per-type scores</h2><div class="controls">'
                    f'<label>System <select id="t-sys"></select></label></div>{types_html}'
                    f'<p class="note">TP/FN by reference type, FP by hypothesis type '
                    f"(errant_compare -cat 3). Type-only: hypothesis and reference restricted "
                    f"to the type. Det: sentence-level detection of the type (F1). Success: "
                    f"share of sentences with gold edits of the type whose edits of that type "
                    f"were all found. \u2014: undefined (P without proposals, R without gold "
                    f"edits, F without either). Click a header to sort.{_attribution_note(r)}</p>"
                    f"</section>")
    conf_html = "".join(confusion_html(r, s) for s in r.systems)
    sections.append(f'<section id="confusion"><h2>Gold type &times; system type</h2>'
                    f'<div class="controls"><label>System <select id="c-sys"></select>'
                    f"</label></div>{conf_html}<p class=\"note\">What the system did with "
                    f"each gold edit (the chosen reference, as scored): its row is the gold "
                    f"type, its column the type of the system's edit at the same span (exact "
                    f"correction or not), else of the first overlapping one, else "
                    f"{escape(MISSED)}. System edits touching no gold edit are in the "
                    f"{escape(NO_GOLD)} row. A count opens those sentences in the browser."
                    f"</p></section>")
    sections.append(f'<section id="chart"><h2>Per-type chart</h2>{type_chart(r)}'
                    f"{frequency_chart(r)}</section>")
    sections.append(f'<section id="heatmap-section"><h2>Systems &times; types</h2>'
                    f'<div class="scroll">{heatmap(r)}</div><p class="note">F{o.beta:g} per '
                    f"system and error type (the most frequent gold types"
                    f"{', of the selection' if o.types else ''}), darker is higher; "
                    f"—: undefined. A cell opens the system's sentences with edits of the "
                    f"type in the browser.{_marks_note(r)}</p></section>")
    if r.baseline:
        sections.append(_baseline_section(r))
    elif len(r.systems) > 1:
        pairs = table_html(comparison_table(r))
        tp = type_comparison_table(r)
        sections.append(f'<section id="pairs"><h2>System comparison</h2>{pairs}'
                        f"<p class=\"note\">Two-sided paired tests of the F difference: "
                        f"bootstrap ({o.bootstrap} shared resamples) and approximate "
                        f"randomisation ({o.trials} trials, seed {o.seed}); Holm correction "
                        f"over the {len(r.systems) * (len(r.systems) - 1) // 2} "
                        f"pairs.</p><details><summary>Per type (paired bootstrap, Holm over "
                        f"pairs)</summary>{table_html(tp)}</details></section>")
    sections.append('<section id="browser"><h2>Sentence browser</h2><div class="controls">'
                    '<label>System <select id="b-sys"></select></label>'
                    '<label>Type <select id="b-type"></select></label>'
                    '<label>Edits <select id="b-status"><option value="">all</option>'
                    '<option>TP</option><option>FP</option><option>FN</option></select></label>'
                    '<label><input type="checkbox" id="b-only"> only sentences with edits'
                    '</label><button id="b-prev">&larr;</button> <button id="b-next">&rarr;'
                    '</button> <span id="b-pair"></span></div>'
                    '<p class="legend"><span class="tok tp">TP</span>'
                    '<span class="tok fp">FP</span><span class="tok fn">FN (missed)</span>'
                    '<span id="browser-totals"></span> &middot; <span id="browser-count">'
                    f'</span></p><div id="browser-list" lang="{escape(r.lang)}"></div>'
                    '</section>')
    origins = "".join(f"<li>{escape(k)}: {escape(v)}</li>" for k, v in r.origins.items())
    notes = "".join(f"<li>{escape(n)}</li>" for n in r.notes)
    sections.append(f'<section id="signatures"><h2>Signatures and inputs</h2>'
                    f"{table_html(signature_table(r))}<ul>{origins}</ul></section>")
    notes_box = (f'<div class="notes" id="notes"><ul>{notes}</ul></div>' if notes else "")
    nav = "".join(f'<a href="#{k}">{v}</a>' for k, v in [
        ("corpus", "Corpus"), ("sentence-measures", "Sentences"), ("types", "Types"),
        ("confusion", "Confusion"), ("chart", "Chart"), ("heatmap-section", "Heatmap"),
        ("pairs", "Baseline" if r.baseline else "Comparison"),
        ("browser", "Browser"), ("signatures", "Signatures")])
    shown = (f"{r.n_sentences} of {r.n_total} sentences (subset)"
             if r.n_total and r.n_sentences != r.n_total else f"{r.n_sentences} sentences")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f'<header><h1>{escape(title)}</h1><p id="page-head">{len(r.systems)} system(s) '
            f"against {escape(r.gold_name)} &middot; {shown} &middot; language "
            f"{escape(r.lang)} &middot; errtype {escape(__version__)}</p></header>"
            f"<nav>{nav}</nav><main>{notes_box}{''.join(sections)}</main>"
            f'<script type="application/json" id="report-data">{_browser_data(r)}</script>'
            f"<script>{JS}</script></body></html>\n")
