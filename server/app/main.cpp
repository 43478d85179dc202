// spookludo-server: thin; the work is in app.cpp.
#include "app.h"

int main(int argc, char** argv) { return spookludo::server::run_app(argc, argv); }
