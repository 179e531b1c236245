// The parent project's program (configured, not built, by install.subproject):
// it includes a layer's header by its path in bankcheck's tree.
#include "model/bank_model.hpp"

int main() {
  const bankcheck::BankModel model = bankcheck::make_preset("sm90");
  (void)model;
  return 0;
}
