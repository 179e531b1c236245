#include "capture/host/launch/kernel_name.hpp"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

namespace bankcheck::capture {

KernelNameBase parse_kernel_name_base(std::string_view text) {
  if (text == "function") return KernelNameBase::function;
  if (text == "demangled") return KernelNameBase::demangled;
  if (text == "mangled") return KernelNameBase::mangled;
  throw std::invalid_argument("--kernel-name-base: '" + std::string(text) +
                              "' is not one of function, demangled, mangled (the values of ncu's option)");
}

const char* kernel_name_base_text(KernelNameBase base) {
  switch (base) {
    case KernelNameBase::function: return "function";
    case KernelNameBase::demangled: return "demangled";
    case KernelNameBase::mangled: return "mangled";
  }
  return "function";
}

namespace {

constexpr std::string_view kAnonymous = "(anonymous namespace)";

/// The demangled name without its parameter list: up to the first '('
/// outside template brackets that does not open c++filt's "(anonymous
/// namespace)" scope or a template argument's cast.
std::string_view without_parameters(std::string_view d) {
  int depth = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] == '<') ++depth;
    else if (d[i] == '>') --depth;
    else if (d[i] == '(' && depth == 0 && i > 0) {
      if (d.substr(i, kAnonymous.size()) == kAnonymous) {
        i += kAnonymous.size() - 1;
        continue;
      }
      return d.substr(0, i);
    }
  }
  return d;
}

/// Without the return type: the text after the last blank outside template brackets.
std::string_view without_return_type(std::string_view s) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    else if (s[i] == '>') --depth;
    else if (s[i] == ' ' && depth == 0 && s.substr(i + 1, 10) != "namespace)") start = i + 1;
  }
  return s.substr(start);
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }

}  // namespace

std::string kernel_base_name(std::string_view d) {
  const std::string_view s = without_parameters(d);
  std::string plain;  // without template arguments
  int depth = 0;
  for (char c : s) {
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (depth == 0) plain += c;
  }
  // The last word after a blank (the return type) and after the last "::".
  const std::size_t from = plain.find_last_of(' ');
  std::string name = from == std::string::npos ? plain : plain.substr(from + 1);
  const std::size_t scope = name.rfind("::");
  if (scope != std::string::npos) name = name.substr(scope + 2);
  return name;
}

std::string kernel_name_in_base(KernelNameBase base, std::string_view mangled, std::string_view demangled) {
  switch (base) {
    case KernelNameBase::mangled: return std::string(mangled);
    case KernelNameBase::demangled: return std::string(demangled);
    case KernelNameBase::function: break;
  }
  return kernel_base_name(demangled.empty() ? mangled : demangled);
}

bool is_mangled_name(std::string_view name) { return name.size() > 2 && name[0] == '_' && name[1] == 'Z'; }

namespace {

/// Tokens: words (identifiers, scopes, numbers) and single punctuation; blanks dropped.
std::vector<std::string> identity_tokens(std::string_view s) {
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == ' ') {
      ++i;
      continue;
    }
    if (is_word(s[i])) {
      std::size_t j = i;
      while (j < s.size() && is_word(s[j])) ++j;
      tokens.emplace_back(s.substr(i, j - i));
      i = j;
    } else {
      tokens.emplace_back(1, s[i]);
      ++i;
    }
  }
  return tokens;
}

bool is_number(const std::string& t) {
  std::size_t k = t.size();
  while (k > 0 && (t[k - 1] == 'u' || t[k - 1] == 'l')) --k;  // c++filt's suffixes: 1u, 1ul, 1ll
  if (k == 0) return false;
  for (std::size_t i = 0; i < k; ++i)
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return false;
  return true;
}

std::string strip_suffix(std::string t) {
  while (!t.empty() && (t.back() == 'u' || t.back() == 'l')) t.pop_back();
  return t;
}

bool is_integer_word(const std::string& t) {
  for (const char* w : {"int", "unsigned", "long", "short", "char", "signed"})
    if (t == w) return true;
  return false;
}

/// Literals one way: ncu's "(int)1", "(unsigned long)1", "(bool)1" (a cast of a built-in type before a
/// number) become "1" / "true", and c++filt's suffixes go.
std::vector<std::string> plain_literals(const std::vector<std::string>& tokens) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] == "(") {
      std::size_t j = i + 1;
      bool integer = false, boolean = false;
      while (j < tokens.size() && (is_integer_word(tokens[j]) || tokens[j] == "bool")) {
        integer = integer || tokens[j] != "bool";
        boolean = boolean || tokens[j] == "bool";
        ++j;
      }
      const bool negative = j + 2 < tokens.size() && tokens[j] == ")" && tokens[j + 1] == "-" && is_number(tokens[j + 2]);
      if ((integer != boolean) && j + 1 < tokens.size() && tokens[j] == ")" && (is_number(tokens[j + 1]) || negative)) {
        if (negative) out.push_back("-");
        const std::string value = strip_suffix(tokens[j + (negative ? 2 : 1)]);
        out.push_back(boolean ? (value == "0" ? "false" : "true") : value);
        i = j + (negative ? 2 : 1);
        continue;
      }
    }
    if (is_number(tokens[i]) && std::isdigit(static_cast<unsigned char>(tokens[i][0]))) {
      out.push_back(strip_suffix(tokens[i]));
      continue;
    }
    out.push_back(tokens[i]);
  }
  return out;
}

/// A leading const ("const int*", after '<' or ',') moves behind its type words: "int const*".
void const_behind(std::vector<std::string>& out) {
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] != "const" || (i > 0 && out[i - 1] != "<" && out[i - 1] != ",")) continue;
    std::size_t j = i + 1;
    while (j < out.size() && is_word(out[j][0]) && out[j] != "const") ++j;
    if (j == i + 1) continue;
    std::vector<std::string> moved(out.begin() + static_cast<std::ptrdiff_t>(i) + 1, out.begin() + static_cast<std::ptrdiff_t>(j));
    moved.push_back("const");
    std::copy(moved.begin(), moved.end(), out.begin() + static_cast<std::ptrdiff_t>(i));
    i = j - 1;
  }
}

/// c++filt's "(anonymous namespace)" and ncu's "<unnamed>" are one scope.
void one_anonymous_scope(std::vector<std::string>& out) {
  for (std::size_t i = 0; i + 3 < out.size(); ++i) {
    const bool cxxfilt = out[i] == "(" && out[i + 1] == "anonymous" && out[i + 2] == "namespace" && out[i + 3] == ")";
    const bool ncu = out[i] == "<" && out[i + 1] == "unnamed" && out[i + 2] == ">";
    if (cxxfilt || ncu) {
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(i) + 1, out.begin() + static_cast<std::ptrdiff_t>(i) + (cxxfilt ? 4 : 3));
      out[i] = "{anonymous}";
    }
  }
}

}  // namespace

std::string demangled_identity(std::string_view demangled) {
  std::vector<std::string> out = plain_literals(identity_tokens(without_return_type(without_parameters(demangled))));
  const_behind(out);
  one_anonymous_scope(out);
  std::string key;
  for (std::size_t i = 0; i < out.size(); ++i) {
    // One blank between two words ("unsigned int"), none elsewhere.
    if (i > 0 && is_word(out[i][0]) && is_word(out[i - 1].back())) key += ' ';
    key += out[i];
  }
  return key;
}

std::string demangled_name(std::string_view mangled) {
  const std::string name(mangled);
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                   std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

}  // namespace bankcheck::capture
