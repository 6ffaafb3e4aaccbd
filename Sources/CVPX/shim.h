// libvpx (VP8) as TernMedia sees it. The init functions are macros that add
// the ABI version; `vpx_codec_control` is a variadic macro.
#ifndef TERN_CVPX_SHIM_H
#define TERN_CVPX_SHIM_H
#include <vpx/vpx_encoder.h>
#include <vpx/vpx_decoder.h>
#include <vpx/vp8cx.h>
#include <vpx/vp8dx.h>

static inline vpx_codec_err_t tern_vpx_codec_enc_init(vpx_codec_ctx_t *ctx, vpx_codec_iface_t *iface,
                                                     const vpx_codec_enc_cfg_t *cfg, vpx_codec_flags_t flags) {
    return vpx_codec_enc_init(ctx, iface, cfg, flags);
}
static inline vpx_codec_err_t tern_vpx_codec_dec_init(vpx_codec_ctx_t *ctx, vpx_codec_iface_t *iface,
                                                     const vpx_codec_dec_cfg_t *cfg, vpx_codec_flags_t flags) {
    return vpx_codec_dec_init(ctx, iface, cfg, flags);
}
static inline vpx_codec_err_t tern_vp8_set_cpuused(vpx_codec_ctx_t *ctx, int value) {
    return vpx_codec_control(ctx, VP8E_SET_CPUUSED, value);
}
static inline vpx_codec_err_t tern_vp8_set_noise_sensitivity(vpx_codec_ctx_t *ctx, unsigned int value) {
    return vpx_codec_control(ctx, VP8E_SET_NOISE_SENSITIVITY, value);
}
static inline vpx_codec_err_t tern_vp8_set_static_threshold(vpx_codec_ctx_t *ctx, unsigned int value) {
    return vpx_codec_control(ctx, VP8E_SET_STATIC_THRESHOLD, value);
}
static inline vpx_codec_err_t tern_vp8_set_token_partitions(vpx_codec_ctx_t *ctx, int value) {
    return vpx_codec_control(ctx, VP8E_SET_TOKEN_PARTITIONS, value);
}
static inline vpx_codec_err_t tern_vp8_set_max_intra_bitrate_pct(vpx_codec_ctx_t *ctx, unsigned int value) {
    return vpx_codec_control(ctx, VP8E_SET_MAX_INTRA_BITRATE_PCT, value);
}
static inline int tern_VPX_DL_REALTIME(void) { return VPX_DL_REALTIME; }
static inline int tern_VPX_EFLAG_FORCE_KF(void) { return VPX_EFLAG_FORCE_KF; }
static inline int tern_VPX_FRAME_IS_KEY(void) { return VPX_FRAME_IS_KEY; }
#endif
