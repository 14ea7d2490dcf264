/*
 * libmicrohttpd, opened by the subcommands that serve HTTP (serve).
 * Include this header instead of the library's own: it includes them,
 * then maps each name the program calls onto the table of
 * mhd_dl.c (see mem/dl.h), which is filled by dlopen() on first use or
 * by mhd_dl_load().
 */
#ifndef DROPJUDGE_HTTP_MHD_DL_H
#define DROPJUDGE_HTTP_MHD_DL_H

#include <microhttpd.h>

#include "mem/dl.h"

/* Every function of the library that the program calls, once. */
#define MHD_DL_SYMS(X)                                                                             \
	X(MHD_add_response_header)                                                                 \
	X(MHD_create_response_from_buffer)                                                         \
	X(MHD_create_response_from_buffer_with_free_callback)                                      \
	X(MHD_create_response_from_callback)                                                       \
	X(MHD_del_response_header)                                                                 \
	X(MHD_destroy_response)                                                                    \
	X(MHD_get_connection_info)                                                                 \
	X(MHD_get_connection_values)                                                               \
	X(MHD_get_connection_values_n)                                                             \
	X(MHD_get_daemon_info)                                                                     \
	X(MHD_get_response_header)                                                                 \
	X(MHD_is_feature_supported)                                                                \
	X(MHD_lookup_connection_value)                                                             \
	X(MHD_queue_response)                                                                      \
	X(MHD_quiesce_daemon)                                                                      \
	X(MHD_resume_connection)                                                                   \
	X(MHD_start_daemon)                                                                        \
	X(MHD_stop_daemon)                                                                         \
	X(MHD_suspend_connection)

#define MHD_DL_FIELD(name) __typeof__(name) *name;
/* A pointer per symbol, typed as the library declares it. */
struct mhd_dl {
	MHD_DL_SYMS(MHD_DL_FIELD)
};
#undef MHD_DL_FIELD

DL_LIBRARY_ACCESSORS(mhd_dl)

#ifndef MHD_DL_TABLE_ITSELF
#define MHD_add_response_header		(mhd_dl()->MHD_add_response_header)
#define MHD_create_response_from_buffer (mhd_dl()->MHD_create_response_from_buffer)
#define MHD_create_response_from_buffer_with_free_callback                                         \
	(mhd_dl()->MHD_create_response_from_buffer_with_free_callback)
#define MHD_create_response_from_callback (mhd_dl()->MHD_create_response_from_callback)
#define MHD_del_response_header		  (mhd_dl()->MHD_del_response_header)
#define MHD_destroy_response		  (mhd_dl()->MHD_destroy_response)
#define MHD_get_connection_info		  (mhd_dl()->MHD_get_connection_info)
#define MHD_get_connection_values	  (mhd_dl()->MHD_get_connection_values)
#define MHD_get_connection_values_n	  (mhd_dl()->MHD_get_connection_values_n)
#define MHD_get_daemon_info		  (mhd_dl()->MHD_get_daemon_info)
#define MHD_get_response_header		  (mhd_dl()->MHD_get_response_header)
#define MHD_is_feature_supported	  (mhd_dl()->MHD_is_feature_supported)
#define MHD_lookup_connection_value	  (mhd_dl()->MHD_lookup_connection_value)
#define MHD_queue_response		  (mhd_dl()->MHD_queue_response)
#define MHD_quiesce_daemon		  (mhd_dl()->MHD_quiesce_daemon)
#define MHD_resume_connection		  (mhd_dl()->MHD_resume_connection)
#define MHD_start_daemon		  (mhd_dl()->MHD_start_daemon)
#define MHD_stop_daemon			  (mhd_dl()->MHD_stop_daemon)
#define MHD_suspend_connection		  (mhd_dl()->MHD_suspend_connection)
#endif

#endif
