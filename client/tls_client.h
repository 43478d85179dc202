#pragma once
// The client's side of TLS (wss://, https://), in OpenSSL's own terms and free of Asio: the
// context every connection of a process shares (TLS 1.2 or 1.3, ALPN http/1.1, the system's CA
// store or a --ca-file), the host name a certificate must name, and the words for a certificate
// that fails the check. net_tls.cpp and net_asio.h put these under Asio's SSL stream.
#include <memory>
#include <optional>
#include <string>

struct ssl_ctx_st;
struct ssl_st;
struct x509_store_ctx_st;

namespace spookludo::client::tls {

// The client context for `ca_file` (empty: the system's CA store), made once per file and
// shared (the CA store is read once, not per connection). Throws std::runtime_error saying why
// the file cannot be used. The caller takes a reference (SSL_CTX_up_ref) and owns it.
ssl_ctx_st* client_context(const std::string& ca_file);

// Why `path` cannot serve as --ca-file (unreadable, no certificate in it), or nothing.
std::optional<std::string> ca_file_problem(const std::string& path);

// Sets what the server's certificate must name (a DNS name, or an IP address for a literal
// address) and the SNI for a name.
void expect_host(ssl_st* ssl, const std::string& host);

// The first failure of a certificate check, as seen by the verify callback.
struct VerifyFailure {
    int error = 0;              // X509_V_ERR_*
    int depth = 0;
    std::string subject;        // of the certificate that failed
    std::string issuer;
    std::string names;          // the server certificate's DNS names and addresses, "a, b"
    std::string not_before, not_after;  // YYYY-MM-DD
};
// Records the failure in `out` if it is the first one; returns `preverified` (OpenSSL decides).
bool note_verification(bool preverified, x509_store_ctx_st* ctx, std::optional<VerifyFailure>& out);

// A person's words for a failed check of `where`'s certificate ("wss://localhost:7777"): why,
// and what to do. `ca_file`: the --ca-file in use, if any.
std::string explain(const VerifyFailure& failure, const std::string& where, const std::string& host,
                    const std::string& ca_file);

}  // namespace spookludo::client::tls
