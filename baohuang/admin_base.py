"""Admin base classes shared by the apps (so no app imports another's admin)."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows that change through the services only: no add, edit or delete here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AppendOnlyAdmin(admin.ModelAdmin):
    """Logs whose "add" writes a new entry through a service (in `save_model`): entries are
    shown with `shown_fields` and never changed or deleted."""

    add_fields: tuple = ()
    shown_fields: tuple = ()

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_fields(self, request, obj=None):
        return self.add_fields if obj is None else self.shown_fields

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.shown_fields
