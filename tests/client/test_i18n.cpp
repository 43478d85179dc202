// The terminal client's catalogues (client/i18n.h): the .po parser's edge cases, the plural
// rule's evaluator, the choice of the language from --lang and the environment, and the texts
// in English, Malay (the embedded po/ms.po) and the pseudo-language qps.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "i18n.h"

using namespace spookludo::client;
using namespace spookludo::client::i18n_detail;

namespace {

const std::vector<std::string>* entry(const Catalogue& c, const std::string& key) {
    const auto it = c.entries.find(key);
    return it == c.entries.end() ? nullptr : &it->second;
}

// An environment made of a map (nothing else set).
std::function<const char*(const char*)> env_of(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char* name) -> const char* {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
}

// Restores the language chosen before the test (other tests expect English).
struct LanguageBack {
    ~LanguageBack() { choose_language("en"); }
};

}  // namespace

TEST_CASE("i18n: the .po parser reads contexts, plurals, escapes and strings over several lines") {
    const auto cat = parse_po(R"po(# A translator's comment
msgid ""
msgstr ""
"Language: xx\n"
"Plural-Forms: nplurals=3; plural=n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2;\n"

#: client/render.cpp:12
msgid "Seats: {taken} of {seats}"
msgstr "Tempat: {taken} daripada {seats}"

msgctxt "key"
msgid "Open"
msgstr "Buka"

msgid "Open"
msgstr "Dibuka"

msgid "{n} seat"
msgid_plural "{n} seats"
msgstr[0] "{n} one"
msgstr[1] "{n} few"
msgstr[2] "{n} many"

msgid ""
"Two "
"lines"
msgstr "Dua\n"
"baris \"petik\" \\ \t\x41\101"
)po");
    CHECK(cat.nplurals == 3);
    CHECK(eval_plural(cat.plural, 3) == 1);
    REQUIRE(entry(cat, "Seats: {taken} of {seats}"));
    CHECK(entry(cat, "Seats: {taken} of {seats}")->at(0) == "Tempat: {taken} daripada {seats}");
    REQUIRE(entry(cat, std::string("key") + '\x04' + "Open"));
    CHECK(entry(cat, std::string("key") + '\x04' + "Open")->at(0) == "Buka");
    CHECK(entry(cat, "Open")->at(0) == "Dibuka");
    REQUIRE(entry(cat, "{n} seat"));
    CHECK(entry(cat, "{n} seat")->size() == 3);
    CHECK(entry(cat, "{n} seat")->at(2) == "{n} many");
    REQUIRE(entry(cat, "Two lines"));
    CHECK(entry(cat, "Two lines")->at(0) == "Dua\nbaris \"petik\" \\ \tAA");
    CHECK(entry(cat, "") == nullptr);  // the header is not a text
}

TEST_CASE("i18n: fuzzy, obsolete, untranslated and malformed entries are left out, the rest is kept") {
    const auto cat = parse_po(R"po(msgid ""
msgstr "Plural-Forms: nplurals=1; plural=0;\n"

#, fuzzy
msgid "Guessed"
msgstr "Diteka"

#, c-format, fuzzy
msgid "Guessed too"
msgstr "Diteka juga"

#~ msgid "Gone"
#~ msgstr "Hilang"

msgid "Empty"
msgstr ""

msgid "Half"
msgid_plural "Halves"
msgstr[0] "Separuh"
msgstr[1] ""

msgid "Broken "quote"
msgstr "Rosak"

msgid "Bad escape \q"
msgstr "x"

msgstr[x] "no"

msgid "Kept"
msgstr "Disimpan"
msgid "Right after"
msgstr "Terus"
)po");
    CHECK(cat.nplurals == 1);
    CHECK(cat.plural == "0");
    CHECK(entry(cat, "Guessed") == nullptr);
    CHECK(entry(cat, "Guessed too") == nullptr);
    CHECK(entry(cat, "Gone") == nullptr);
    CHECK(entry(cat, "Empty") == nullptr);
    CHECK(entry(cat, "Half") == nullptr);
    CHECK(entry(cat, "Broken \"quote") == nullptr);
    REQUIRE(entry(cat, "Kept"));
    CHECK(entry(cat, "Kept")->at(0) == "Disimpan");
    REQUIRE(entry(cat, "Right after"));
    CHECK(entry(cat, "Right after")->at(0) == "Terus");
    // Nothing at all, or only rubbish: an empty catalogue with English's plural rule.
    CHECK(parse_po("").entries.empty());
    CHECK(parse_po("\"dangling\"\nmsgstr[99999999999] \"x\"\n\\\\\n").entries.empty());
    CHECK(parse_po("").plural == "n != 1");
}

TEST_CASE("i18n: the plural rule evaluator reads C's expressions and refuses anything else") {
    CHECK(eval_plural("0", 5) == 0);
    CHECK(eval_plural("(n != 1)", 1) == 0);
    CHECK(eval_plural("(n != 1)", 0) == 1);
    CHECK(eval_plural("n>1", 2) == 1);
    // Polish.
    const char* polish = "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)";
    CHECK(eval_plural(polish, 1) == 0);
    CHECK(eval_plural(polish, 3) == 1);
    CHECK(eval_plural(polish, 13) == 2);
    CHECK(eval_plural(polish, 22) == 1);
    CHECK(eval_plural(polish, 25) == 2);
    // Arabic's six forms, right-nested ?:.
    const char* arabic = "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5";
    CHECK(eval_plural(arabic, 0) == 0);
    CHECK(eval_plural(arabic, 2) == 2);
    CHECK(eval_plural(arabic, 105) == 3);
    CHECK(eval_plural(arabic, 111) == 4);
    CHECK(eval_plural(arabic, 100) == 5);
    CHECK(eval_plural("n < 2 || n > 4", 3) == 0);
    CHECK(eval_plural("n <= 2", 2) == 1);
    CHECK(eval_plural("!(n == 1)", 1) == 0);
    // Not expressions: nullopt, never a crash.
    CHECK_FALSE(eval_plural("", 1));
    CHECK_FALSE(eval_plural("n %", 1));
    CHECK_FALSE(eval_plural("n % 0", 1));
    CHECK_FALSE(eval_plural("n / (n - 1)", 1));
    CHECK_FALSE(eval_plural("(n == 1", 1));
    CHECK_FALSE(eval_plural("n == 1)", 1));
    CHECK_FALSE(eval_plural("n ? 1", 1));
    CHECK_FALSE(eval_plural("x", 1));
    CHECK_FALSE(eval_plural("n = 1", 1));
    CHECK_FALSE(eval_plural(std::string(10000, '('), 1));
    CHECK_FALSE(eval_plural(std::string(5000, '!') + "n", 1));
    CHECK_FALSE(eval_plural("99999999999999999999", 1));
}

TEST_CASE("i18n: the language comes from --lang, then LANGUAGE's list, LC_ALL, LC_MESSAGES and LANG, English when none has a catalogue") {
    const std::vector<std::string> have{"ms"};
    CHECK(pick_language("ms", env_of({{"LANG", "en_GB.UTF-8"}}), have) == "ms");
    CHECK(pick_language("ms_MY", env_of({}), have) == "ms");
    CHECK(pick_language("en", env_of({{"LANG", "ms_MY.UTF-8"}}), have) == "en");
    CHECK(pick_language("fr", env_of({{"LANG", "ms_MY.UTF-8"}}), have) == "en");
    CHECK(pick_language("qps", env_of({}), have) == "qps");
    CHECK(pick_language("", env_of({{"LANG", "ms_MY.UTF-8"}}), have) == "ms");
    CHECK(pick_language("", env_of({{"LANG", "ms"}}), have) == "ms");
    CHECK(pick_language("", env_of({{"LANG", "ms_MY.UTF-8@latin"}}), have) == "ms");
    CHECK(pick_language("", env_of({{"LC_MESSAGES", "ms_MY.UTF-8"}, {"LANG", "en_US.UTF-8"}}), have) == "ms");
    CHECK(pick_language("", env_of({{"LC_ALL", "C"}, {"LC_MESSAGES", "ms_MY.UTF-8"}}), have) == "en");
    CHECK(pick_language("", env_of({{"LC_ALL", "en_US.UTF-8"}, {"LANG", "ms_MY.UTF-8"}}), have) == "en");
    CHECK(pick_language("", env_of({{"LANGUAGE", "fr:de_DE:ms"}, {"LANG", "en_US.UTF-8"}}), have) == "ms");
    CHECK(pick_language("", env_of({{"LANGUAGE", "en:ms"}, {"LANG", "ms_MY.UTF-8"}}), have) == "en");
    CHECK(pick_language("", env_of({{"LANGUAGE", "fr"}, {"LANG", "ms_MY.UTF-8"}}), have) == "ms");
    CHECK(pick_language("", env_of({{"LANG", "fr_FR.UTF-8"}}), have) == "en");
    CHECK(pick_language("", env_of({{"LANG", "../../etc/passwd"}}), have) == "en");
    CHECK(pick_language("", env_of({}), have) == "en");
    CHECK(pick_language("", env_of({{"LANG", "ms_MY.UTF-8"}}), {}) == "en");
}

TEST_CASE("i18n: texts in English, in Malay from the embedded catalogue, and wrapped in the pseudo-language") {
    LanguageBack back;
    CHECK(choose_language("en") == "en");
    CHECK(tr("Seats: {taken} of {seats}", {{"taken", "2"}, {"seats", "4"}}) == "Seats: 2 of 4");
    CHECK(trn("{n} seat", "{n} seats", 1) == "1 seat");
    CHECK(trn("{n} seat", "{n} seats", 3) == "3 seats");
    CHECK(tr("{a} and {missing}", {{"a", "x"}}) == "x and {missing}");

    CHECK(choose_language("ms_MY.UTF-8") == "ms");
    CHECK(current_language() == "ms");
    CHECK(tr("Press any key to go back to the room.") != "Press any key to go back to the room.");
    CHECK(trn("{n} seat", "{n} seats", 3) == "3 tempat duduk");
    CHECK(tr("{name} took seat {seat}", {{"name", "Ann"}, {"seat", "2"}}) == "Ann mengambil tempat duduk 2");
    CHECK(trc("colour", "green") == "hijau");
    CHECK(tr("A text no catalogue has, {x}", {{"x", "1"}}) == "A text no catalogue has, 1");

    CHECK(choose_language("qps") == "qps");
    CHECK(tr("Seats: {taken}", {{"taken", "Ann"}}) == "\u27E6Seats: Ann\u27E7");
    CHECK(trn("{n} seat", "{n} seats", 2) == "\u27E6" "2 seats\u27E7");
    CHECK(trc("key", "Open") == "\u27E6Open\u27E7");
}
