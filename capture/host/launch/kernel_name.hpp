#pragma once
// Kernel names as the capture and Nsight Compute see them. ncu selects
// launches (`-k regex:`) by one of three bases of a kernel's name
// (`--kernel-name-base function|demangled|mangled`, default function: the
// bare function name, no scope, template arguments or parameters) and
// prints them by another (`--print-kernel-base`, default demangled, in a
// spelling of its own: `(int)1` where c++filt writes `1`, parameters as
// `T2`). `bankcheck capture --kernel REGEX --kernel-name-base B` selects by
// the same bases, so one regex picks the same launches in both tools; and
// `compare` pairs launches by identity: the mangled name where ncu printed
// it, else the demangled name cut to its qualified name and template
// arguments, in a spelling both demanglers agree on (never the base name
// alone: two instantiations of one template share it).
#include <optional>
#include <string>
#include <string_view>

namespace bankcheck::capture {

enum class KernelNameBase { function, demangled, mangled };

/// "function", "demangled", "mangled". @throws std::invalid_argument naming the allowed values.
KernelNameBase parse_kernel_name_base(std::string_view text);
const char* kernel_name_base_text(KernelNameBase base);

/// The function's base name: "void ns::f<int>(T1)" -> "f".
std::string kernel_base_name(std::string_view demangled);

/// The name a filter of `base` matches.
std::string kernel_name_in_base(KernelNameBase base, std::string_view mangled, std::string_view demangled);

/// Whether `name` is an Itanium-mangled C++ name ("_Z...").
bool is_mangled_name(std::string_view name);

/// The C++ ABI's demangling of `mangled` ("_ZN2ns1kIiEEvT_" -> "void ns::k<int>(int)"), as
/// c++filt prints it; `mangled` itself where it does not demangle (a C name, "matmul_kernel").
std::string demangled_name(std::string_view mangled);

/// The identity of a demangled kernel name: its qualified name and template
/// arguments without the return type and the parameter list, in one spelling
/// for c++filt's and ncu's output: no blanks, integer and bool template
/// arguments without their cast or suffix ("(int)1", "1u" -> "1";
/// "(bool)1" -> "true"), and a leading `const` moved behind the type it
/// qualifies ("const int*" -> "intconst*"). Two instantiations of one
/// template have different identities; one function spelled by the two
/// demanglers has one.
std::string demangled_identity(std::string_view demangled);

}  // namespace bankcheck::capture
