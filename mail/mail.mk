# SPDX-License-Identifier: GPL-2.0
# mail.mk - the mail end (mail/): included by the top-level Makefile.
# The list is local: a public-inbox v2 inbox `all` in $(WORKDIR)/lists/all,
# address safer-fput@lists.localhost; mail/deliver is b4's only way out.

.PHONY: cover send am list trailers list-httpd list-httpd-stop

cover: ## refresh the results block (gate verdicts, range-diff vs the sent v(N-1)) and To/Cc of cover-letters/$(KVER)/$(REV).txt and the branch
	@mail/cover.sh

send: ## b4 send $(REV) to the local list, refused unless gated and free of EDITME; DRY=1 writes .eml files only
	@mail/send.sh $(if $(DRY),--dry-run)

am: ## b4 am the last sent revision (AM_REV=vN) back from the local list; must equal tag sent/safer-fput-vN
	@mail/am.sh $(AM_REV)

list: ## create the local list (public-inbox inbox `all` in $(WORKDIR)/lists) if needed and count its messages
	@mail/list.sh

trailers: ## apply the Reviewed-by/Acked-by/Tested-by replies on the local list to branch $(BRANCH) (b4 trailers -u), then export
	@mail/trailers.sh

list-httpd: ## serve the local list on 127.0.0.1 (LIST_PORT, default 8089) with public-inbox-httpd, for b4 and the cover's links
	@mail/httpd.sh start

list-httpd-stop: ## stop the local list's HTTP server
	@mail/httpd.sh stop
