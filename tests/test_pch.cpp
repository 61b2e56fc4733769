//===- test_pch.cpp - the translation unit that builds tests/test_pch.h ----===//
//
// opforge_test_pch (cmake/OpforgeHelpers.cmake) compiles this empty file to
// produce the precompiled header every test binary reuses.
//
//===----------------------------------------------------------------------===//
