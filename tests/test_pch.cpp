// The owner of the test programs' shared precompiled header
// (tests/CMakeLists.txt): it compiles the header once with the tests' flags.
