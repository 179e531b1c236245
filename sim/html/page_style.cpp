#include "sim/html/page_assets.hpp"

namespace bankcheck::html {

std::string_view page_style() {
  return R"CSS(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1em 2em; color: #111; background: #fff; }
h1 { font-size: 1.5em; margin: 0.2em 0; } #kernel-title, #grid-title { overflow-wrap: anywhere; } h2 { font-size: 1.2em; margin-top: 1.2em; } h3 { font-size: 1.05em; }
code, pre, .sass, .src { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
.meta { color: #444; margin: 0.1em 0; }
.keys { color: #444; font-size: 12px; }
input.filter { width: 28em; padding: 3px 6px; margin: 0.3em 0; }
table.data { border-collapse: collapse; margin: 0.4em 0; }
table.data th, table.data td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
table.data td.num, table.data th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.data th button { all: unset; cursor: pointer; font-weight: bold; }
table.data th[aria-sort=ascending] button::after { content: " \25B2"; }
table.data th[aria-sort=descending] button::after { content: " \25BC"; }
table.data tbody tr { cursor: pointer; }
table.data tbody tr.selected { outline: 3px solid #1a5fb4; outline-offset: -2px; background: #eef4ff; }
.verdict-yes { } .verdict-other { font-weight: bold; }
.back { margin: 0.5em 0; }
.file { margin: 0.8em 0; border: 1px solid #ccc; }
.file-name { background: #f2f2f2; padding: 3px 6px; font-weight: bold; }
.line { display: grid; grid-template-columns: 15em 4em 1fr; }
.line .margin { font-family: ui-monospace, monospace; font-size: 11.5px; padding: 0 4px; white-space: nowrap; position: relative; }
.line .heat { position: absolute; left: 0; top: 2px; bottom: 2px; background: repeating-linear-gradient(45deg, #d33 0 3px, #f7b0a8 3px 6px); opacity: 0.55; }
.line .margin span.t { position: relative; }
.line .num { color: #666; text-align: right; padding-right: 6px; font-family: ui-monospace, monospace; font-size: 12px; }
.line .src { white-space: pre; overflow-x: auto; }
.line.hot .src { font-weight: bold; }
.gap { color: #888; padding-left: 19em; }
.sass-list { margin: 0 0 0.3em 19em; border-left: 3px double #999; padding-left: 6px; }
.sass-row { cursor: pointer; white-space: pre; font-family: ui-monospace, monospace; font-size: 12px; }
.sass-row:hover, .sass-row:focus { background: #eef4ff; }
.grid-wrap { overflow-x: auto; }
table.grid { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 11px; }
table.grid th, table.grid td { border: 1px solid #bbb; padding: 1px 3px; min-width: 2.2em; text-align: center; }
table.grid td.s0 { background: #f0f0f0; color: #555; }
table.grid td.s1 { background: #9fe0aa; border: 2px solid #2a7a3a; }
table.grid td.s2 { background: repeating-linear-gradient(135deg, #f07b72 0 4px, #fbd0cc 4px 8px); border: 2px dashed #900; font-weight: bold; }
table.grid td.s2::before { content: "\2715"; margin-right: 2px; }
.legend span { display: inline-block; padding: 1px 6px; margin-right: 8px; border: 1px solid #bbb; font-size: 12px; }
.facts div { margin: 0.15em 0; }
)CSS";
}

}  // namespace bankcheck::html
