//===- parser_errors_test.cpp - syntax errors: message, line:col and caret --===//
#include <gtest/gtest.h>

#include "opforge/compiler/parser.h"

using namespace opforge::compiler;

namespace {

// The rendered diagnostic of parsing `src`, or "no error".
std::string error_of(const std::string &src) {
  try {
    parse_source("k.py", src);
  } catch (const CompileError &e) {
    return e.rendered();
  }
  return "no error";
}

}  // namespace

TEST(ParserErrors, UnexpectedIndent) {
  EXPECT_EQ(error_of("x = 1\n    y = 2\n"),
            "k.py:2:5: error: unexpected indent\n    y = 2\n    ^\n");
}

TEST(ParserErrors, UnindentDoesNotMatch) {
  EXPECT_EQ(
      error_of("def f():\n        x = 1\n    y = 2\n"),
      "k.py:3:5: error: unindent does not match any outer indentation level\n    y = 2\n    ^\n");
}

TEST(ParserErrors, MissingIndentedBlock) {
  EXPECT_EQ(error_of("def f(x):\nreturn x\n"),
            "k.py:2:1: error: expected an indented block after function definition on line "
            "1\nreturn x\n^~~~~~\n");
  EXPECT_NE(
      error_of("for i in range(3):\n\nx = 1\n")
          .find("k.py:3:1: error: expected an indented block after 'for' statement on line 1"),
      std::string::npos);
}

TEST(ParserErrors, UnclosedBracketPointsAtTheBracket) {
  EXPECT_EQ(error_of("x = (1 + 2\ny = 3\n"),
            "k.py:1:5: error: '(' was never closed\nx = (1 + 2\n    ^\n");
  EXPECT_EQ(error_of("@triton.jit\ndef k(a,\n      b:\n"),
            "k.py:2:6: error: '(' was never closed\ndef k(a,\n     ^\n");
  EXPECT_EQ(error_of("y = [1, 2"), "k.py:1:5: error: '[' was never closed\ny = [1, 2\n    ^\n");
}

TEST(ParserErrors, MismatchedAndUnmatchedBrackets) {
  EXPECT_EQ(error_of("x = (1, 2]\n"),
            "k.py:1:10: error: closing parenthesis ']' does not match opening parenthesis '('\nx = "
            "(1, 2]\n         ^\n");
  EXPECT_EQ(error_of("x = 1)\n"), "k.py:1:6: error: unmatched ')'\nx = 1)\n     ^\n");
}

TEST(ParserErrors, BadTokens) {
  EXPECT_EQ(error_of("x = 1 $ 2\n"),
            "k.py:1:7: error: invalid character '$' in source\nx = 1 $ 2\n      ^\n");
  EXPECT_EQ(error_of("x = 12abc\n"),
            "k.py:1:5: error: invalid decimal literal\nx = 12abc\n    ^~~~~\n");
  EXPECT_EQ(error_of("x = 0x\n"), "k.py:1:5: error: invalid hexadecimal literal\nx = 0x\n    ^~\n");
  EXPECT_EQ(error_of("x = 3j\n"),
            "k.py:1:5: error: complex literals are not supported\nx = 3j\n    ^~\n");
  EXPECT_EQ(error_of("s = 'abc\n"),
            "k.py:1:5: error: unterminated string literal\ns = 'abc\n    ^\n");
  EXPECT_NE(error_of("s = \"\"\"abc\n\n")
                .find("k.py:1:5: error: unterminated triple-quoted string literal"),
            std::string::npos);
  EXPECT_NE(error_of("x = 007\n").find("leading zeros"), std::string::npos);
  EXPECT_NE(error_of("x = 99999999999999999999\n").find("does not fit in 64 bits"),
            std::string::npos);
}

TEST(ParserErrors, InvalidSyntaxNamesTheToken) {
  EXPECT_EQ(error_of("x = 1 +\n"),
            "k.py:1:8: error: invalid syntax: unexpected end of line\nx = 1 +\n       ^\n");
  EXPECT_EQ(error_of("def f(x)\n    return x\n"),
            "k.py:1:9: error: expected ':' after function definition but found end of line\ndef "
            "f(x)\n        ^\n");
  EXPECT_NE(error_of("x = a b\n").find("k.py:1:7: error: invalid syntax: unexpected 'b'"),
            std::string::npos);
  EXPECT_NE(
      error_of("f(a=1, 2)\n").find("k.py:1:8: error: positional argument follows keyword argument"),
      std::string::npos);
  EXPECT_NE(error_of("f(a=1, a=2)\n").find("keyword argument repeated: a"), std::string::npos);
  EXPECT_NE(
      error_of("def f(a=1, b):\n    pass\n")
          .find("k.py:1:12: error: parameter without a default follows parameter with a default"),
      std::string::npos);
}

TEST(ParserErrors, InvalidAssignmentTargets) {
  EXPECT_NE(error_of("f() = 1\n").find("k.py:1:1: error: cannot assign to function call"),
            std::string::npos);
  EXPECT_NE(error_of("1 = x\n").find("cannot assign to literal"), std::string::npos);
  EXPECT_NE(error_of("a + b += 1\n").find("illegal expression for augmented assignment"),
            std::string::npos);
}

TEST(ParserErrors, ConstructsOutsideTheSubset) {
  EXPECT_NE(error_of("class A:\n    pass\n")
                .find("k.py:1:1: error: 'class' statements are not supported"),
            std::string::npos);
  EXPECT_NE(
      error_of("try:\n    pass\nexcept:\n    pass\n").find("'try' statements are not supported"),
      std::string::npos);
  EXPECT_NE(error_of("def f():\n    global x\n").find("k.py:2:5: error: 'global' is not supported"),
            std::string::npos);
  EXPECT_NE(
      error_of("with open('f') as g:\n    pass\n").find("'with' statements are not supported"),
      std::string::npos);
  EXPECT_NE(error_of("y = (x := 3)\n").find("assignment expressions (:=) are not supported"),
            std::string::npos);
  EXPECT_NE(error_of("x = b'abc'\n").find("bytes literals are not supported"), std::string::npos);
}

TEST(ParserErrors, FStringErrorsPointIntoTheString) {
  EXPECT_NE(error_of("s = f'{}'\n").find("k.py:1:7: error: f-string: empty expression not allowed"),
            std::string::npos);
  EXPECT_NE(error_of("s = f'{a'\n").find("f-string: expecting '}'"), std::string::npos);
  EXPECT_NE(error_of("s = f'{a + }'\n").find("k.py:1:12: error:"), std::string::npos);
  EXPECT_NE(error_of("s = f'a } b'\n").find("single '}' is not allowed"), std::string::npos);
}

TEST(ParserErrors, DisallowedImportsAreErrorsAtTheImport) {
  EXPECT_EQ(error_of("import torch\nimport numpy as np\n"),
            "k.py:2:1: error: import of module 'numpy' is not allowed (allowed: torch, triton, "
            "triton.language, math)\n"
            "import numpy as np\n^~~~~~~~~~~~~~~~~~\n");
  EXPECT_NE(error_of("from os import path\n")
                .find("k.py:1:1: error: import of 'path' from module 'os' is not allowed"),
            std::string::npos);
  EXPECT_NE(error_of("import triton.language as lang\n").find("must bind the name 'tl'"),
            std::string::npos);
  EXPECT_NE(error_of("def f():\n    import subprocess\n").find("k.py:2:5: error:"),
            std::string::npos);
}

TEST(ParserErrors, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "x = " + std::string(500, '(') + "1" + std::string(500, ')') + "\n";
  EXPECT_NE(error_of(deep).find("too many nested parentheses"), std::string::npos);
  std::string minus = "x = " + std::string(5000, '-') + "1\n";
  EXPECT_NE(error_of(minus).find("too many nested"), std::string::npos);
}

TEST(ParserErrors, ErrorContextCarriesFileLineAndColumn) {
  try {
    parse_source("dir/k.py", "x = (1,\n  2]\n");
    FAIL() << "expected an error";
  } catch (const CompileError &e) {
    EXPECT_EQ(e.context().file, "dir/k.py");
    EXPECT_EQ(e.context().line, 2);
    EXPECT_EQ(e.context().col, 4);
    EXPECT_EQ(
        std::string(e.what()),
        "dir/k.py:2:4: closing parenthesis ']' does not match opening parenthesis '(' on line 1");
  }
}
