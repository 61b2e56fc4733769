// fail_test.c - a program whose third check fails: the ISS must report fail code 3.
int main(void) {
  volatile int x = 41;
  if (x + 1 != 42) return 1;
  if (x * 2 != 82) return 2;
  if (x != 40) return 3;
  return 0;
}
