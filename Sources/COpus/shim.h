// libopus as TernMedia sees it. `opus_encoder_ctl` is variadic: one shim per request.
#ifndef TERN_COPUS_SHIM_H
#define TERN_COPUS_SHIM_H
#include <opus.h>
static inline int tern_opus_set_bitrate(OpusEncoder *enc, opus_int32 bps) {
    return opus_encoder_ctl(enc, OPUS_SET_BITRATE(bps));
}
static inline int tern_opus_set_inband_fec(OpusEncoder *enc, opus_int32 on) {
    return opus_encoder_ctl(enc, OPUS_SET_INBAND_FEC(on));
}
static inline int tern_opus_set_packet_loss_perc(OpusEncoder *enc, opus_int32 percent) {
    return opus_encoder_ctl(enc, OPUS_SET_PACKET_LOSS_PERC(percent));
}
static inline int tern_opus_set_dtx(OpusEncoder *enc, opus_int32 on) {
    return opus_encoder_ctl(enc, OPUS_SET_DTX(on));
}
static inline int tern_opus_set_complexity(OpusEncoder *enc, opus_int32 complexity) {
    return opus_encoder_ctl(enc, OPUS_SET_COMPLEXITY(complexity));
}
static inline int tern_opus_get_lookahead(OpusEncoder *enc, opus_int32 *samples) {
    return opus_encoder_ctl(enc, OPUS_GET_LOOKAHEAD(samples));
}
#endif
