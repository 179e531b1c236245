#include "sim/html/page_assets.hpp"

#include <string>

namespace bankcheck::html {
namespace {

// The page's script in three parts, joined by page_script(): what the others
// use (the data, element and number helpers), the sortable table, and the
// page's views (kernels, a kernel's instructions and source, one instruction's
// bank grid) with the keyboard and the URL hash that select them.
constexpr const char* kScriptHelpers = R"JS(
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k]; else if (k === 'cls') e.className = attrs[k]; else e.setAttribute(k, attrs[k]);
    });
    (kids || []).forEach(function (c) { e.appendChild(c); });
    return e;
  }
  // A captured site is FUNCTION+0xOFFSET: under its kernel's heading the offset says it.
  function shortSite(site) { var at = site.lastIndexOf('+0x'); return at > 0 ? site.slice(at) : site; }
  function offsetOf(site) { var at = site.lastIndexOf('+0x'); return at > 0 ? parseInt(site.slice(at + 3), 16) : 0; }
  function fmt(v) { return v === null || v === undefined ? '' : (typeof v === 'number' ? v.toLocaleString('en-US') : String(v)); }

)JS";

constexpr const char* kScriptTable = R"JS(  // A sortable, filterable table whose rows are selected by keyboard (j/k, arrows) and opened by Enter or a click.
  function Table(table, filter, columns, rows, open) {
    this.table = table; this.columns = columns; this.rows = rows; this.open = open;
    this.shown = rows.slice(); this.selected = 0; this.sortKey = null; this.sortDir = -1;
    var self = this, head = el('tr');
    columns.forEach(function (c) {
      var th = el('th', {cls: c.num ? 'num' : '', scope: 'col'}, [el('button', {text: c.label, type: 'button'})]);
      th.firstChild.addEventListener('click', function () { self.sort(c.key); });
      head.appendChild(th);
    });
    table.appendChild(el('thead', {}, [head]));
    this.body = el('tbody');
    table.appendChild(this.body);
    filter.addEventListener('input', function () { self.filter(filter.value); });
    this.render();
  }
  Table.prototype.text = function (r) {
    return this.columns.map(function (c) { return fmt(c.get ? c.get(r) : r[c.key]); }).join(' ').toLowerCase();
  };
  Table.prototype.filter = function (q) {
    var self = this, words = q.toLowerCase().split(/\s+/).filter(Boolean);
    this.shown = this.rows.filter(function (r) { var t = self.text(r); return words.every(function (w) { return t.indexOf(w) >= 0; }); });
    this.selected = 0; this.render();
  };
  Table.prototype.sort = function (key) {
    this.sortDir = this.sortKey === key ? -this.sortDir : -1; this.sortKey = key;
    var col = this.columns.filter(function (c) { return c.key === key; })[0], dir = this.sortDir;
    var get = function (r) { return col.sortBy ? col.sortBy(r) : col.get ? col.get(r) : r[key]; };
    this.shown.sort(function (a, b) {
      var x = get(a), y = get(b);
      if (typeof x === 'number' || typeof y === 'number') return dir * ((x || 0) - (y || 0));
      return dir * String(x).localeCompare(String(y));
    });
    var ths = this.table.querySelectorAll('th');
    this.columns.forEach(function (c, i) { ths[i].setAttribute('aria-sort', c.key === key ? (dir > 0 ? 'ascending' : 'descending') : 'none'); });
    this.render();
  };
  Table.prototype.render = function () {
    var self = this;
    this.body.textContent = '';
    this.shown.forEach(function (r, i) {
      var tr = el('tr', {'aria-selected': i === self.selected ? 'true' : 'false'});
      if (i === self.selected) tr.className = 'selected';
      self.columns.forEach(function (c) {
        var v = c.get ? c.get(r) : r[c.key];
        tr.appendChild(el('td', {cls: c.num ? 'num' : (c.cls || ''), text: fmt(v)}));
      });
      tr.addEventListener('click', function () { self.selected = i; self.render(); self.open(r); });
      self.body.appendChild(tr);
    });
  };
  Table.prototype.move = function (d) {
    if (!this.shown.length) return;
    this.selected = Math.max(0, Math.min(this.shown.length - 1, this.selected + d));
    this.render();
    var tr = this.body.children[this.selected];
    if (tr && tr.scrollIntoView) tr.scrollIntoView({block: 'nearest'});
  };
  Table.prototype.openSelected = function () { if (this.shown.length) this.open(this.shown[this.selected]); };

)JS";

constexpr const char* kScriptViews = R"JS(  $('title').textContent = data.title;
  $('model').textContent = 'model ' + data.model;
  data.notes.forEach(function (n) { $('notes').appendChild(el('li', {text: n})); });

  var kernelColumns = [
    {key: 'rank', label: 'rank', num: true}, {key: 'name', label: 'kernel'},
    {key: 'conflict_cycles', label: 'conflict cycles', num: true}, {key: 'launches', label: 'launches', num: true},
    {key: 'sites', label: 'instructions', num: true}, {key: 'executions', label: 'executions', num: true},
    {key: 'wavefronts', label: 'wavefronts', num: true}, {key: 'ideal', label: 'ideal', num: true},
    {key: 'conflicts', label: 'conflicts', num: true}, {key: 'verdicts', label: 'verdicts (ncu)'},
    {key: 'not_modelled', label: 'not modelled', num: true}, {key: 'notes', label: 'not traced / notes'}];
  var insColumns = [
    {key: 'source', label: 'source line'}, {key: 'site', label: 'site', get: function (r) { return shortSite(r.site); },
     sortBy: function (r) { return offsetOf(r.site); }}, {key: 'sass', label: 'SASS', cls: 'sass'},
    {key: 'executions', label: 'executions', num: true}, {key: 'wavefronts', label: 'wavefronts', num: true},
    {key: 'ideal', label: 'ideal', num: true}, {key: 'conflicts', label: 'conflicts', num: true},
    {key: 'degree', label: 'worst degree', num: true}, {key: 'verdict', label: 'verdict'},
    {key: 'measured', label: 'ncu wavefronts', num: true}];

  var kernels = new Table($('kernels'), $('kernel-filter'), kernelColumns, data.kernels, showKernel);
  var instructions = null, current = null;

  function show(view) {
    $('kernels-section').hidden = view !== 'kernels';
    $('kernel-section').hidden = view === 'kernels';
    $('grid-section').hidden = view !== 'grid';
  }
  function showKernel(k) {
    current = k;
    $('kernel-title').textContent = k.name;
    $('kernel-facts').textContent = fmt(k.conflicts) + ' conflicts of ' + fmt(k.wavefronts) + ' wavefronts (ideal ' +
      fmt(k.ideal) + '), ' + fmt(k.launches) + ' launch(es)' + (k.notes ? '; ' + k.notes : '');
    var rows = k.instructions.map(function (i) { return data.instructions[i]; });
    var table = $('instructions'), filter = $('instruction-filter');
    var fresh = table.cloneNode(false), freshFilter = filter.cloneNode(false);
    table.parentNode.replaceChild(fresh, table); filter.parentNode.replaceChild(freshFilter, filter);
    freshFilter.value = '';
    instructions = new Table(fresh, freshFilter, insColumns, rows, showGrid);
    drawSource(rows);
    show('kernel');
  }
  function drawSource(rows) {
    var box = $('source'); box.textContent = '';
    var byFile = {}, noLine = [];
    rows.forEach(function (r) {
      if (!r.file) { noLine.push(r); return; }
      (byFile[r.file] = byFile[r.file] || {})[r.line] = ((byFile[r.file] || {})[r.line] || []).concat([r]);
    });
    var worst = Math.max.apply(null, [1].concat(rows.map(function (r) { return r.conflicts || 0; })));
    Object.keys(byFile).sort().forEach(function (file) {
      var f = data.files[file] || {found: false, lines: {}}, lines = byFile[file];
      var div = el('div', {cls: 'file'}, [el('div', {cls: 'file-name', text: file + (f.found ? '' : ' (source not found here: the lines with instructions only)')})]);
      // This kernel's lines and the file's text around them (the data holds every kernel's).
      var own = Object.keys(lines).map(Number);
      var near = function (n) { return own.some(function (m) { return Math.abs(m - n) <= data.context; }); };
      var numbers = Object.keys(f.lines).map(Number).filter(near).concat(own);
      numbers = numbers.filter(function (n, i) { return numbers.indexOf(n) === i; }).sort(function (a, b) { return a - b; });
      var last = 0;
      numbers.forEach(function (n) {
        if (last && n > last + 1) div.appendChild(el('div', {cls: 'gap', text: '\u22EE'}));
        last = n;
        var here = lines[n] || [], w = 0, id = 0, c = 0;
        here.forEach(function (r) { w += r.wavefronts || 0; id += r.ideal || 0; c += r.conflicts || 0; });
        var margin = el('div', {cls: 'margin'});
        if (here.length) {
          margin.appendChild(el('span', {cls: 'heat', style: 'width:' + Math.round(100 * c / worst) + '%'}));
          margin.appendChild(el('span', {cls: 't', text: 'wf ' + fmt(w) + ' ideal ' + fmt(id) + ' conf ' + fmt(c)}));
        }
        var line = el('div', {cls: 'line' + (c > 0 ? ' hot' : ''), 'data-line': String(n)},
          [margin, el('div', {cls: 'num', text: String(n)}), el('div', {cls: 'src', text: f.lines[n] !== undefined ? f.lines[n] : ''})]);
        div.appendChild(line);
        if (here.length) div.appendChild(sassList(here));
      });
      box.appendChild(div);
    });
    noLine.sort(function (a, b) { return offsetOf(a.site) - offsetOf(b.site); });
    if (noLine.length) {
      var div = el('div', {cls: 'file'}, [el('div', {cls: 'file-name', text: 'no line info'})]);
      div.appendChild(sassList(noLine));
      box.appendChild(div);
    }
  }
  function sassList(rows) {
    var list = el('div', {cls: 'sass-list'});
    rows.forEach(function (r) {
      var row = el('div', {cls: 'sass-row', tabindex: '0', text: shortSite(r.site) + '  ' + (r.sass || r.op + ' ' + r.width) +
        '  [' + fmt(r.conflicts) + ' conflicts' + (r.verdict ? '; ncu: ' + r.verdict : '') + ']'});
      row.addEventListener('click', function () { showGrid(r); });
      row.addEventListener('keydown', function (e) { if (e.key === 'Enter') showGrid(r); });
      list.appendChild(row);
    });
    return list;
  }
  function showGrid(r) {
    $('grid-title').textContent = shortSite(r.site) + (r.sass ? '  ' + r.sass : '') + (r.source ? '  at ' + r.source : '');
    var facts = $('grid-facts'), box = $('grid'), g = r.grid;
    facts.textContent = ''; box.textContent = '';
    show('grid');
    if (!g || g.none) { facts.appendChild(el('div', {text: g ? g.none : 'no grid'})); return; }
    [ 'worst execution: ' + g.cost.wavefronts + ' wavefronts, ideal ' + g.cost.ideal + ', ' + g.cost.conflicts +
      ' conflicts, worst degree ' + g.cost.degree, 'culprit: ' + g.culprit, 'phases: ' + g.phases,
      g.cut ? g.cut + ' more touched shared-memory rows not drawn' : ''
    ].forEach(function (t) { if (t) facts.appendChild(el('div', {text: t})); });
    var table = el('table', {cls: 'grid', id: 'bank-grid'}), head = el('tr', {}, [el('th', {text: 'bank (words)'})]);
    g.columns.forEach(function (c) { head.appendChild(el('th', {text: 'row ' + c})); });
    table.appendChild(el('thead', {}, [head]));
    var body = el('tbody'), cells = {};
    g.cells.forEach(function (c) { cells[c[0] + ':' + c[1]] = c; });
    var names = ['touched', 'accessed', 'conflict'];
    for (var b = 0; b < g.banks; ++b) {
      var tr = el('tr', {}, [el('th', {text: b + ' (' + g.bank_words[b] + ')'})]);
      for (var k = 0; k < g.columns.length; ++k) {
        var c = cells[b + ':' + k];
        tr.appendChild(c ? el('td', {cls: 's' + c[2], 'data-state': names[c[2]], title: names[c[2]] + ': lanes ' + c[3], text: c[3]}) : el('td'));
      }
      body.appendChild(tr);
    }
    table.appendChild(body);
    box.appendChild(table);
  }
  function back() {
    if (!$('grid-section').hidden) { $('grid-section').hidden = true; return; }
    if (!$('kernel-section').hidden) show('kernels');
  }
  $('back').addEventListener('click', function () { show('kernels'); });
  document.addEventListener('keydown', function (e) {
    var inInput = e.target && e.target.tagName === 'INPUT';
    var table = $('kernel-section').hidden ? kernels : instructions;
    if (e.key === 'Escape') { if (inInput) e.target.blur(); else back(); return; }
    if (e.key === '/' && !inInput) { e.preventDefault(); ($('kernel-section').hidden ? $('kernel-filter') : $('instruction-filter')).focus(); return; }
    if (inInput && e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Enter') return;
    if (e.key === 'j' || e.key === 'ArrowDown') { table.move(1); e.preventDefault(); }
    else if (e.key === 'k' || e.key === 'ArrowUp') { table.move(-1); e.preventDefault(); }
    else if (e.key === 'Enter' && (!e.target.classList || !e.target.classList.contains('sass-row'))) table.openSelected();
  });
  // "#k=RANK" opens a kernel, "#k=RANK&i=SITE" an instruction's grid as well: a page can be linked to a view.
  function fromHash() {
    var h = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (p) {
      var kv = p.split('=');
      if (kv[0]) h[kv[0]] = decodeURIComponent(kv[1] || '');
    });
    var k = data.kernels.filter(function (x) { return String(x.rank) === h.k; })[0];
    if (!k) return;
    showKernel(k);
    var r = k.instructions.map(function (i) { return data.instructions[i]; }).filter(function (x) { return x.site === h.i; })[0];
    if (r) showGrid(r);
  }
  window.addEventListener('hashchange', fromHash);
  show('kernels');
  fromHash();
})();
)JS";

}  // namespace

std::string_view page_script() {
  static const std::string script = std::string(kScriptHelpers) + kScriptTable + kScriptViews;
  return script;
}

}  // namespace bankcheck::html
