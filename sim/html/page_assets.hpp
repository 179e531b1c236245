#pragma once
// The report page's own style sheet and script, inlined into every page so
// that it opens from disk with no server and no network. The script reads
// the page's data (a JSON block) and draws the tables, the source view and
// the bank grids; every state it shows in colour it also shows in text or
// in a pattern, so the page reads without colour.
#include <string_view>

namespace bankcheck::html {

/// The CSS.
std::string_view page_style();
/// The JavaScript (no modules, no network: it only reads the page).
std::string_view page_script();

}  // namespace bankcheck::html
