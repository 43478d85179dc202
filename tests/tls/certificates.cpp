#include "certificates.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace spookludo::testing {

namespace {

using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using Cert = std::unique_ptr<X509, decltype(&X509_free)>;

Key new_key() {
    Key k(EVP_EC_gen("P-256"), EVP_PKEY_free);
    if (!k) throw std::runtime_error("cannot make an EC key");
    return k;
}

void add_extension(X509* cert, X509* issuer, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    if (!ext) throw std::runtime_error("bad certificate extension " + value);
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
}

void add_name(X509_NAME* name, const char* field, const std::string& value) {
    X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(value.c_str()), -1, -1,
                               0);
}

// A certificate for `key` named `subject`, issued by `issuer` (itself when none); signed later.
Cert new_cert(EVP_PKEY* key, X509_NAME* subject, X509* issuer, long not_before, long not_after, long serial) {
    Cert c(X509_new(), X509_free);
    X509_set_version(c.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(c.get()), serial);
    X509_gmtime_adj(X509_getm_notBefore(c.get()), not_before);
    X509_gmtime_adj(X509_getm_notAfter(c.get()), not_after);
    X509_set_pubkey(c.get(), key);
    X509_set_subject_name(c.get(), subject);
    X509_set_issuer_name(c.get(), issuer ? X509_get_subject_name(issuer) : subject);
    return c;
}

void write_pem(const std::string& path, X509* cert, EVP_PKEY* key) {
    FILE* f = std::fopen((path + ".new").c_str(), "w");
    if (!f) throw std::runtime_error("cannot write " + path);
    const bool ok = cert ? PEM_write_X509(f, cert) == 1 : PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
    std::fclose(f);
    if (!ok) throw std::runtime_error("cannot write " + path);
    std::filesystem::rename(path + ".new", path);
}

template <class T, class Read>
T read_pem(const std::string& path, Read read, void (*free)(typename T::element_type*)) {
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f) throw std::runtime_error("cannot read " + path);
    auto* p = read(f, nullptr, nullptr, nullptr);
    std::fclose(f);
    if (!p) throw std::runtime_error("no PEM in " + path);
    return T(p, free);
}

}  // namespace

Certificates::Certificates(const std::filesystem::path& d, const CertificateSpec& spec)
    : dir(d.string()), ca(dir + "/ca.pem"), cert(dir + "/cert.pem"), key(dir + "/key.pem") {
    Key ca_key = new_key();
    X509_NAME* name = X509_NAME_new();
    add_name(name, "CN", "SpookLudo test CA");
    Cert root = new_cert(ca_key.get(), name, nullptr, -86400, 7 * 86400, 1);
    X509_NAME_free(name);
    add_extension(root.get(), root.get(), NID_basic_constraints, "critical,CA:TRUE");
    add_extension(root.get(), root.get(), NID_key_usage, "critical,keyCertSign,cRLSign");
    add_extension(root.get(), root.get(), NID_subject_key_identifier, "hash");
    X509_sign(root.get(), ca_key.get(), EVP_sha256());
    write_pem(ca, root.get(), nullptr);
    write_pem(dir + "/ca.key", nullptr, ca_key.get());
    make(spec);
}

void Certificates::make(const CertificateSpec& spec) {
    static long serial = 100;
    Cert root = read_pem<Cert>(ca, PEM_read_X509, X509_free);
    Key ca_key = read_pem<Key>(dir + "/ca.key", PEM_read_PrivateKey, EVP_PKEY_free);
    Key server_key = new_key();
    X509_NAME* name = X509_NAME_new();
    add_name(name, "O", spec.organisation);
    add_name(name, "CN", spec.names.empty() ? "localhost" : spec.names.front().substr(spec.names.front().find(':') + 1));
    Cert leaf = new_cert(server_key.get(), name, root.get(), spec.not_before, spec.not_after, ++serial);
    X509_NAME_free(name);
    std::string alt;
    for (const auto& n : spec.names) alt += (alt.empty() ? "" : ",") + n;
    if (!alt.empty()) add_extension(leaf.get(), root.get(), NID_subject_alt_name, alt);
    add_extension(leaf.get(), root.get(), NID_basic_constraints, "CA:FALSE");
    add_extension(leaf.get(), root.get(), NID_ext_key_usage, "serverAuth");
    add_extension(leaf.get(), root.get(), NID_authority_key_identifier, "keyid");
    X509_sign(leaf.get(), ca_key.get(), EVP_sha256());
    // The key first: a server reloading between the two writes sees a mismatch and keeps the old.
    write_pem(key, nullptr, server_key.get());
    write_pem(cert, leaf.get(), nullptr);
}

}  // namespace spookludo::testing
