#include "tls_client.h"

#include "i18n.h"
#include "spookludo/openssl_errors.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <ctime>
#include <memory>
#include <stdexcept>

namespace spookludo::client::tls {

namespace {

// A name's common name ("SpookLudo test CA"), or the whole name when it has none.
std::string readable_name(const X509_NAME* name) {
    if (!name) return "(no name)";
    const int at = X509_NAME_get_index_by_NID(name, NID_commonName, -1);
    if (at >= 0) {
        const ASN1_STRING* data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, at));
        unsigned char* utf8 = nullptr;
        const int n = ASN1_STRING_to_UTF8(&utf8, data);
        if (n >= 0) {
            std::string out(reinterpret_cast<char*>(utf8), static_cast<std::size_t>(n));
            OPENSSL_free(utf8);
            return out;
        }
    }
    char buf[256] = {};
    X509_NAME_oneline(name, buf, sizeof buf);
    return buf;
}

std::string day_of(const ASN1_TIME* t) {
    struct tm tm {};
    if (!t || ASN1_TIME_to_tm(t, &tm) != 1) return "an unknown date";
    char out[16];
    std::strftime(out, sizeof out, "%Y-%m-%d", &tm);
    return out;
}

// The DNS names and IP addresses a certificate is for (its subjectAltName), "a, b".
std::string names_of(X509* cert) {
    std::string out;
    auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
    if (!names) return readable_name(X509_get_subject_name(cert));
    for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
        const GENERAL_NAME* n = sk_GENERAL_NAME_value(names, i);
        std::string one;
        if (n->type == GEN_DNS) {
            one.assign(reinterpret_cast<const char*>(ASN1_STRING_get0_data(n->d.dNSName)),
                       static_cast<std::size_t>(ASN1_STRING_length(n->d.dNSName)));
        } else if (n->type == GEN_IPADD) {
            const int len = ASN1_STRING_length(n->d.iPAddress);
            char text[INET6_ADDRSTRLEN] = {};
            if (inet_ntop(len == 4 ? AF_INET : AF_INET6, ASN1_STRING_get0_data(n->d.iPAddress), text, sizeof text))
                one = text;
        }
        if (one.empty()) continue;
        if (!out.empty()) out += ", ";
        out += one;
    }
    GENERAL_NAMES_free(names);
    return out.empty() ? readable_name(X509_get_subject_name(cert)) : out;
}

bool is_ip_literal(const std::string& host) {
    unsigned char buf[16];
    return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

}  // namespace

ssl_ctx_st* client_context(const std::string& ca_file) {
    ERR_clear_error();
    SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) throw std::runtime_error(tr("cannot set up TLS: {detail}", {{"detail", openssl_errors()}}));
    std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> owned(ctx, SSL_CTX_free);
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);  // thousands of idle connections in the load generator
    static const unsigned char http11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    SSL_CTX_set_alpn_protos(ctx, http11, sizeof http11);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
    if (ca_file.empty()) {
        if (SSL_CTX_set_default_verify_paths(ctx) != 1)
            throw std::runtime_error(tr("cannot read the system's CA store: {detail}", {{"detail", openssl_errors()}}));
    } else {
        if (auto problem = ca_file_problem(ca_file)) throw std::runtime_error(*problem);
        if (SSL_CTX_load_verify_locations(ctx, ca_file.c_str(), nullptr) != 1)
            throw std::runtime_error(
                tr("cannot use --ca-file {file}: {detail}", {{"file", ca_file}, {"detail", openssl_errors()}}));
        // A server's own certificate given as --ca-file is trusted as it is (it need not be a CA).
        X509_STORE_set_flags(SSL_CTX_get_cert_store(ctx), X509_V_FLAG_PARTIAL_CHAIN);
    }
    return owned.release();
}

std::optional<std::string> ca_file_problem(const std::string& path) {
    BIO* bio = BIO_new_file(path.c_str(), "r");
    if (!bio) {
        ERR_clear_error();
        return tr("cannot read --ca-file {file}", {{"file", path}});
    }
    X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    ERR_clear_error();
    if (!cert) return tr("--ca-file {file} holds no certificate (a PEM file, -----BEGIN CERTIFICATE-----)", {{"file", path}});
    X509_free(cert);
    return std::nullopt;
}

void expect_host(ssl_st* ssl, const std::string& host) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
    if (is_ip_literal(host)) {
        X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
    } else {
        // SNI (SSL_set_tlsext_host_name, without its C cast).
        SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, const_cast<char*>(host.c_str()));
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size());
    }
}

bool note_verification(bool preverified, x509_store_ctx_st* ctx, std::optional<VerifyFailure>& out) {
    if (preverified || out) return preverified;
    VerifyFailure f;
    f.error = X509_STORE_CTX_get_error(ctx);
    f.depth = X509_STORE_CTX_get_error_depth(ctx);
    if (X509* cert = X509_STORE_CTX_get_current_cert(ctx)) {
        f.subject = readable_name(X509_get_subject_name(cert));
        f.issuer = readable_name(X509_get_issuer_name(cert));
        f.not_before = day_of(X509_get0_notBefore(cert));
        f.not_after = day_of(X509_get0_notAfter(cert));
    }
    if (X509* leaf = X509_STORE_CTX_get0_cert(ctx)) f.names = names_of(leaf);
    out = std::move(f);
    return preverified;
}

std::string explain(const VerifyFailure& f, const std::string& where, const std::string& host,
                    const std::string& ca_file) {
    std::string why;
    const std::string whose = f.depth == 0 ? tr("the server's certificate")
                                           : tr("a certificate in its chain ({subject})", {{"subject", f.subject}});
    switch (f.error) {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            why = tr("{whose} expired on {date}. The host must renew it (e.g. certbot renew, then kill -HUP the server); "
                     "if that date has not come yet, this computer's clock is wrong",
                     {{"whose", whose}, {"date", f.not_after}});
            break;
        case X509_V_ERR_CERT_NOT_YET_VALID:
            why = tr("{whose} is valid only from {date}. If that date has passed, this computer's clock is wrong; "
                     "otherwise the host must fix the certificate",
                     {{"whose", whose}, {"date", f.not_before}});
            break;
        case X509_V_ERR_HOSTNAME_MISMATCH:
        case X509_V_ERR_IP_ADDRESS_MISMATCH:
            why = tr("the server's certificate is for {names}, not {host}. Connect with a name the certificate lists "
                     "(e.g. {example}), or ask the host for a certificate that names {host}",
                     {{"names", f.names},
                      {"host", host},
                      {"example", where.substr(0, where.find("://") + 3) + f.names.substr(0, f.names.find(',')) +
                                      where.substr(where.rfind(':'))}});
            break;
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
        case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        case X509_V_ERR_CERT_UNTRUSTED:
            if (f.error == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT)
                why = ca_file.empty()
                          ? tr("the server's certificate comes from an unknown issuer (\"{issuer}\", it signed itself), "
                               "which this computer does not trust. If the host made the certificate themselves "
                               "(self-signed, or with a CA of their own), get its certificate file from them and add "
                               "--ca-file FILE; otherwise someone may be in between: do not go on",
                               {{"issuer", f.issuer}})
                          : tr("the server's certificate comes from an unknown issuer (\"{issuer}\", it signed itself), "
                               "which is not in --ca-file {file}. If the host made the certificate themselves "
                               "(self-signed, or with a CA of their own), get its certificate file from them and add "
                               "--ca-file FILE; otherwise someone may be in between: do not go on",
                               {{"issuer", f.issuer}, {"file", ca_file}});
            else
                why = ca_file.empty()
                          ? tr("the server's certificate comes from an unknown issuer (\"{issuer}\"), which this "
                               "computer does not trust. If the host made the certificate themselves (self-signed, or "
                               "with a CA of their own), get its certificate file from them and add --ca-file FILE; "
                               "otherwise someone may be in between: do not go on",
                               {{"issuer", f.issuer}})
                          : tr("the server's certificate comes from an unknown issuer (\"{issuer}\"), which is not in "
                               "--ca-file {file}. If the host made the certificate themselves (self-signed, or with a "
                               "CA of their own), get its certificate file from them and add --ca-file FILE; otherwise "
                               "someone may be in between: do not go on",
                               {{"issuer", f.issuer}, {"file", ca_file}});
            break;
        default:
            why = tr("{whose} failed the check: {detail}",
                     {{"whose", whose}, {"detail", X509_verify_cert_error_string(f.error)}});
    }
    return tr("cannot trust {address}: {why} [certificate]", {{"address", where}, {"why", why}});
}

}  // namespace spookludo::client::tls
