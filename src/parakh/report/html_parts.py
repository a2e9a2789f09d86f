"""Small pieces shared by the HTML pages: escaping, colours, tables, bars, the page shell.

Pages are self-contained (inline CSS, JS and SVG; no network, no external files) and
deterministic (no timestamps), so a re-run on the same inputs writes the same bytes.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

# viridis at 11 evenly spaced stops (matplotlib's colormap), interpolated linearly.
_VIRIDIS = [
    (68, 1, 84),
    (72, 40, 120),
    (62, 73, 137),
    (49, 104, 142),
    (38, 130, 142),
    (31, 158, 137),
    (53, 183, 121),
    (109, 205, 89),
    (180, 222, 44),
    (253, 231, 37),
    (253, 231, 37),
]
MISSING_COLOUR = "#e6e6e6"

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;margin:0;
color:#1b1b1b;background:#fff;line-height:1.4}
main{max-width:1200px;margin:0 auto;padding:16px 24px 48px}
h1{font-size:1.5rem;margin:.2em 0}h2{font-size:1.15rem;margin-top:1.6em;
border-bottom:1px solid #ddd;padding-bottom:.2em}
table{border-collapse:collapse;margin:.5em 0;font-size:.85rem}
th,td{border:1px solid #cfcfcf;padding:3px 7px;text-align:left;vertical-align:top}
thead th{background:#1f3a5f;color:#fff}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.best{font-weight:700}
.ci{color:#555;font-size:.8em}.counts{color:#a33;font-size:.8em}
.warn{background:#fff4d6;border:1px solid #e0b84c;padding:8px 12px;border-radius:4px}
.note{color:#555;font-size:.9rem}
.heatmap td.hm{color:#fff;text-align:center;min-width:4.5em}
.heatmap td.hm.light{color:#111}
pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:.8rem;max-height:28em}
nav a{margin-right:1em}
.q{border:1px solid #ccc;border-radius:6px;margin:12px 0;padding:8px 12px}
.q header{font-size:.85rem;color:#444}.answers{display:grid;gap:10px;
grid-template-columns:repeat(auto-fit,minmax(280px,1fr))}
.answer{border-left:3px solid #1f3a5f;padding-left:8px}
.answer .text{white-space:pre-wrap;max-height:16em;overflow:auto;font-size:.9rem}
.score{font-size:.8rem}.score .why{color:#555}.status-invalid,.status-error{color:#a33}
.status-skipped{color:#888}.filters{position:sticky;top:0;background:#fff;padding:8px 0;
border-bottom:1px solid #ddd;z-index:1}.filters label{margin-right:1em;font-size:.9rem}
"""

# Records script errors so a headless browser (and a reader) can tell the page rendered.
ERROR_HOOK = """
window.parakhErrors=[];
window.addEventListener('error',function(e){window.parakhErrors.push(String(e.message));
document.documentElement.setAttribute('data-js-errors',String(window.parakhErrors.length));});
"""

RENDERED_MARK = """
document.body.setAttribute('data-rendered', window.parakhErrors.length ? 'errors' : 'ok');
"""


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def colour(value: float | None) -> str:
    """viridis colour of a 0..1 value (grey when there is no value). Callers pass the value's
    goodness (1 - x for a lower-is-better metric), so bright yellow is always the good end."""
    if value is None:
        return MISSING_COLOUR
    x = min(1.0, max(0.0, value)) * 10.0
    i = min(9, int(x))
    t = x - i
    a, b = _VIRIDIS[i], _VIRIDIS[i + 1]
    r, g, bl = (round(a[k] + (b[k] - a[k]) * t) for k in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"


def is_light(value: float | None) -> bool:
    return value is None or value >= 0.6


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    table_id: str | None = None,
    cls: str | None = None,
) -> str:
    """An HTML table; `rows` hold ready HTML, the header is escaped here."""
    attrs = (f' id="{esc(table_id)}"' if table_id else "") + (f' class="{esc(cls)}"' if cls else "")
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(c if c.startswith("<td") else f"<td>{c}</td>" for c in row) + "</tr>"
        for row in rows
    )
    return f"<table{attrs}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def bar_chart(
    groups: Sequence[str],
    series: Sequence[tuple[str, Sequence[tuple[float | None, float | None, float | None]]]],
    *,
    chart_id: str,
    label: str,
) -> str:
    """Inline SVG of horizontal bars on 0..1: per group one bar per series, with intervals.

    `series` is [(name, [(mean, low, high) per group])], values already scaled to 0..1.
    """
    width, left, bar_h, gap = 760, 170, 12, 10
    plot_w = width - left - 20
    group_h = bar_h * max(1, len(series)) + gap
    height = 30 + group_h * len(groups) + 20 * len(series)
    parts = [
        f'<svg id="{esc(chart_id)}" role="img" aria-label="{esc(label)}" '
        f'xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-size="11" font-family="sans-serif">'
    ]
    for tick in range(0, 11, 2):
        x = left + plot_w * tick / 10
        parts.append(
            f'<line x1="{x:.1f}" y1="20" x2="{x:.1f}" y2="{20 + group_h * len(groups)}" '
            'stroke="#e3e3e3"/>'
        )
        parts.append(f'<text x="{x:.1f}" y="14" text-anchor="middle">{tick / 10:.1f}</text>')
    for g, group in enumerate(groups):
        y0 = 22 + g * group_h
        parts.append(
            f'<text x="{left - 6}" y="{y0 + group_h / 2:.1f}" text-anchor="end" '
            f'dominant-baseline="middle">{esc(group)}</text>'
        )
        for k, (name, values) in enumerate(series):
            mean, low, high = values[g]
            y = y0 + k * bar_h
            fill = colour(k / max(1, len(series) - 1) * 0.8 + 0.1)
            if mean is None:
                continue
            parts.append(
                f'<rect x="{left}" y="{y}" width="{plot_w * mean:.1f}" height="{bar_h - 2}" '
                f'fill="{fill}"><title>{esc(name)} · {esc(group)}: {mean:.3f}</title></rect>'
            )
            if low is not None and high is not None:
                yc = y + (bar_h - 2) / 2
                parts.append(
                    f'<line x1="{left + plot_w * low:.1f}" x2="{left + plot_w * high:.1f}" '
                    f'y1="{yc:.1f}" y2="{yc:.1f}" stroke="#111" stroke-width="1.2"/>'
                )
    legend_y = 30 + group_h * len(groups)
    for k, (name, _) in enumerate(series):
        fill = colour(k / max(1, len(series) - 1) * 0.8 + 0.1)
        y = legend_y + 18 * k
        parts.append(f'<rect x="{left}" y="{y}" width="12" height="12" fill="{fill}"/>')
        parts.append(f'<text x="{left + 18}" y="{y + 10}">{esc(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def page(title: str, body: str, script: str = "") -> str:
    """A complete, self-contained HTML document."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{CSS}</style>"
        f"<script>{ERROR_HOOK}</script></head>"
        f"<body><main>{body}</main><script>{script}{RENDERED_MARK}</script></body></html>\n"
    )


def partial_banner(text: str | None) -> str:
    """The warning at the top of every page of a partial run (`aggregate.allow_partial`);
    nothing for a complete run."""
    if text is None:
        return ""
    return f'<p class="warn" id="partial-run"><b>{esc(text)}.</b></p>'


def json_attr(value: object) -> str:
    """JSON for a data-* attribute (escaped for HTML)."""
    return esc(json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")))
