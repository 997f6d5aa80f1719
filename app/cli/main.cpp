#include <cstdio>

int main() {
  std::puts("reuleaux-cli " REULEAUX_VERSION);
  return 0;
}
